// The pattern checker asks recheck's native binary directly (src/resolve/pattern-checker.ts): its
// answers must be recheck's own `checkSync`'s, asked one at a time, ahead of time, or with no binary.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

const require = createRequire(import.meta.url);
const { checkSync } = require("recheck") as typeof import("recheck");

const PARAMS = { checker: "automaton", timeout: 5_000 } as const;
// Linear, bounded, exponential, polynomial, look-around, a back-reference, and one whose attack
// string holds characters JSON escapes: every status and the fields diagnostics print.
const PATTERNS = ["^TASK-[0-9]+$", "^OF-[A-Z0-9]{6}$", "^(a+)+$", "^(\\w|\\d)+$", "^\\d*\\d*$", "^(?=A)[A-Z]+$", "^(a)\\1$", '^("|\\\\)*"x$'];

/** A fresh copy of the checker module, with `RECHECK_BIN` as given. */
const freshChecker = async (bin?: string): Promise<typeof import("../../src/resolve/pattern-checker.js")> => {
  vi.resetModules();
  if (bin === undefined) delete process.env["RECHECK_BIN"];
  else process.env["RECHECK_BIN"] = bin;
  return import("../../src/resolve/pattern-checker.js");
};

afterEach(() => {
  delete process.env["RECHECK_BIN"];
});

describe("the pattern checker", () => {
  const expected = PATTERNS.map((pattern) => checkSync(pattern, "u", PARAMS));

  it("answers as recheck's checkSync does, asked one at a time", async () => {
    const { answeringChecker, checkPattern } = await freshChecker();
    expect(answeringChecker()).toBeUndefined();
    expect(PATTERNS.map((pattern) => checkPattern(pattern, "u", PARAMS))).toEqual(expected);
    expect(answeringChecker()).toBe("native");
  });

  it("answers the same when every pattern was handed to it ahead of time, asked in another order", async () => {
    const { answeringChecker, checkPattern, prefetchPatterns } = await freshChecker();
    prefetchPatterns(PATTERNS, "u", PARAMS);
    const reversed = [...PATTERNS].reverse().map((pattern) => checkPattern(pattern, "u", PARAMS));
    expect(reversed.reverse()).toEqual(expected);
    // Asked again: the checker is asked again, not a stale answer taken.
    expect(checkPattern(PATTERNS[2]!, "u", PARAMS)).toEqual(expected[2]);
    expect(answeringChecker()).toBe("native");
  });

  it("answers through recheck's checkSync when the binary cannot be started", async () => {
    const { answeringChecker, checkPattern } = await freshChecker(join(import.meta.dirname, "no-such-recheck-binary"));
    expect(PATTERNS.slice(0, 3).map((pattern) => checkPattern(pattern, "u", PARAMS))).toEqual(expected.slice(0, 3));
    expect(answeringChecker()).toBe("checkSync");
  });

  it("does not keep the process alive once its work is done", () => {
    const script = `import { checkPattern } from ${JSON.stringify(join(import.meta.dirname, "../../src/resolve/pattern-checker.ts"))};
      console.log(checkPattern("^(a+)+$", "u", { checker: "automaton", timeout: 5000 }).status);`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("vulnerable");
    expect(run.status).toBe(0);
  });
});

describe("patterns handed to the checker while files are parsed", () => {
  it("change no verdict, whatever the text holds that only looks like a pattern", async () => {
    vi.resetModules();
    const { patternVerdict, prefetchVerdicts } = await import("../../src/resolve/pattern-safety.js");
    const { answeringChecker } = await import("../../src/resolve/pattern-checker.js");
    const text = [
      "fields:",
      '  a: { type: string, pattern: "^(a+)+$" }',
      "  b:",
      "    type: string",
      "    pattern: '^TASK-[0-9]+$'",
      // An escape YAML knows and JSON does not, a pattern JSON cannot read, and one in a description.
      '  c: { type: string, pattern: "^\\x41+$" }',
      '  d: { type: string, pattern: "^[a-z"+$" }',
      '  e: { type: string, description: "pattern: \\"^(b+)+$\\" is refused" }',
    ].join("\n");
    prefetchVerdicts([text]);
    expect(answeringChecker()).toBe("native");
    expect(patternVerdict("^TASK-[0-9]+$")).toBeUndefined();
    expect(patternVerdict("^(a+)+$")).toMatch(/^takes exponential time on input such as /);
    expect(patternVerdict("^A+$")).toBeUndefined();
    expect(patternVerdict("^(b+)+$")).toMatch(/^takes exponential time/);
  });
});
