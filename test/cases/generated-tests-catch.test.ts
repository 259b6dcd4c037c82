// The generated tests can fail: each break below edits a copy of task.result's 1.2 validator the
// way a bug in treaty's validator emitter would, and the copy's generated tests must fail — with
// the very test named for the broken check among the failures — while an intact copy passes.
//
// How a break finds its place: the emitted validator reads each field once per function, as
// `const fN = v.<field>;`, and every statement up to the next field's read checks that field (in
// `is_*` and in `err_*`). A break edits only those statements, so it hits the named field and
// nothing else, whatever the local's number or the file's layout.
//
// A case runs against every version it holds in (`1.0–1.2 rejects a missing task_id`): breaking
// only 1.2, the last or the first version of such a range, must still fail that case.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGeneratedTests, type VitestReport } from "../support/run-generated-tests.js";

const ROOT = join(import.meta.dirname, "../..");
const CONTRACT = "task.result";
const VALIDATOR = "v1_2/validator.ts";
const SHARED = "validators.ts";
/** Between the two files while a break edits them as one text. */
const FILE_BREAK = "\n//---- next file ----\n";

/** Applies `edit` to the statements checking `field`, given the local that holds it. */
const editField = (source: string, field: string, edit: (code: string, local: string) => string): string =>
  source.replace(new RegExp(`const (f\\d+) = v\\.${field};[\\s\\S]*?(?=\\n  const f\\d+ = |\\n})`, "g"), (code, local: string) => edit(code, local));

interface Break {
  readonly name: string;
  /** The generated test that checks exactly what the break breaks. */
  readonly caughtBy: string;
  readonly apply: (source: string) => string;
}

/** Applies `edit` to the function `name` only (up to its closing brace at column 0). */
const editFunction = (source: string, name: string, edit: (code: string) => string): string =>
  source.replace(new RegExp(`function ${name}\\([\\s\\S]*?\\n}\\n`), (code) => edit(code));

const BREAKS: readonly Break[] = [
  {
    // read() checks as it copies, apart from check(): its own break must fail the tests too.
    name: "widens the maxLength of task_id from 64 to 65 in read() alone",
    caughtBy: "1.0–1.2 rejects task_id above maxLength 64",
    apply: (source) => editFunction(source, "take_root", (code) => code.replaceAll("<= 64", "<= 65")),
  },
  {
    name: "drops result from what read() copies",
    caughtBy: "1.2 accepts example 1 (The seed's payload)",
    apply: (source) => editFunction(source, "take_root", (code) => code.replace(/, result: t\d+/, "")),
  },
  {
    name: "drops the required check of task_id",
    caughtBy: "1.0–1.2 rejects a missing task_id",
    apply: (source) =>
      editField(source, "task_id", (code, f) => code.replaceAll(`${f} !== undefined &&`, `${f} === undefined ||`).replaceAll(`if (${f} === undefined)`, "if (false)")),
  },
  {
    name: "widens the maxLength of task_id from 64 to 65",
    caughtBy: "1.0–1.2 rejects task_id above maxLength 64",
    apply: (source) => editField(source, "task_id", (code) => code.replaceAll("<= 64", "<= 65")),
  },
  {
    name: "widens the min of usage.model_calls from 0 to -1",
    caughtBy: "1.2–2.0 rejects usage.model_calls below min 0",
    apply: (source) => editField(source, "model_calls", (code) => code.replaceAll(">= 0", ">= -1")),
  },
  {
    // The edge is a described list (`make`), built when the test runs.
    name: "widens the maxItems of result.claims from 500 to 501",
    caughtBy: "1.2–2.0 rejects result.claims above maxItems 500",
    apply: (source) => editField(source, "claims", (code) => code.replaceAll("<= 500", "<= 501")),
  },
  {
    name: "loosens the pattern of task_id by dropping its anchors",
    caughtBy: "1.0–1.2 rejects task_id with text around a match of ^TASK-[0-9]+$",
    apply: (source) => {
      // The field's checks name its hoisted regex; the break edits that declaration.
      let regex: string | undefined;
      editField(source, "task_id", (code) => {
        regex ??= /\b(re_\w+)\.test\(/.exec(code)?.[1];
        return code;
      });
      return source.replace(new RegExp(`(const ${regex} = new RegExp\\(")\\^(.*)\\$(", "u"\\))`), "$1$2$3");
    },
  },
];

const scratch = join(ROOT, ".scratch");
let dir: string;
let report: VitestReport;
const copies = [{ name: "intact", apply: (source: string) => source }, ...BREAKS].map((b, i) => ({ ...b, folder: `copy${i}` }));

/** The titles of the copy's generated tests that failed. */
const failures = (folder: string): string[] => {
  const file = report.testResults.find((r) => r.name.includes(`/${folder}/`));
  expect(file, `no results for ${folder}`).toBeDefined();
  expect(file!.assertionResults.length).toBeGreaterThan(100);
  return file!.assertionResults.filter((a) => a.status === "failed").map((a) => a.title);
};

beforeAll(() => {
  mkdirSync(scratch, { recursive: true });
  dir = mkdtempSync(join(scratch, "generated-tests-catch-"));
  // The code 1.2's validator runs: its own file and what it imports from the versions' shared
  // validators.ts, broken as one text (a field checked in one may use a pattern declared in the other).
  const files = [VALIDATOR, SHARED];
  const original = files.map((file) => readFileSync(join(ROOT, "generated", CONTRACT, file), "utf8")).join(FILE_BREAK);
  for (const copy of copies) {
    const target = join(dir, copy.folder, CONTRACT);
    cpSync(join(ROOT, "generated", CONTRACT), target, { recursive: true });
    const broken = copy.apply(original);
    if (copy.name !== "intact") expect(broken, `${copy.name}: the break found nothing to edit`).not.toBe(original);
    const parts = broken.split(FILE_BREAK);
    expect(parts).toHaveLength(files.length);
    files.forEach((file, i) => writeFileSync(join(target, file), parts[i]!));
  }
  // Every copy in one vitest run, with treaty's runtime from source as in this repo's config.
  report = runGeneratedTests(dir, "**/*.test.ts");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`the generated tests of ${CONTRACT} catch a broken validator`, () => {
  it("pass against an intact copy", () => {
    expect(failures("copy0")).toEqual([]);
  });
  for (const copy of copies.slice(1)) {
    it(`fail when the validator ${copy.name}`, () => {
      expect(failures(copy.folder)).toContain((copy as Break).caughtBy);
    });
  }
});
