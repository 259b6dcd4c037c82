// Golden tests over test/fixtures/<case>/: `bad-*` cases print exactly their diagnostics.txt and
// write nothing; `good-*` cases generate exactly their expected/ tree and print their warnings, if any,
// as diagnostics.txt says. UPDATE=1 rewrites all of it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep, dirname } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";

const FIXTURES = join(import.meta.dirname, "fixtures");
const UPDATE = process.env["UPDATE"] === "1";
const scratch = mkdtempSync(join(tmpdir(), "treaty-fixtures-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = async (cwd: string, args: string[]) => {
  let stdout = "";
  let stderr = "";
  const status = await runCli(args, { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
};

const tree = (dir: string): Map<string, string> =>
  new Map(
    existsSync(dir)
      ? readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => {
            const path = join(e.parentPath, e.name);
            return [relative(dir, path).split(sep).join("/"), readFileSync(path, "utf8")] as const;
          })
          .sort(([a], [b]) => (a < b ? -1 : 1))
      : [],
  );

const cases = readdirSync(FIXTURES).sort();

describe("bad input", () => {
  const bad = cases.filter((c) => c.startsWith("bad-"));
  it("has at least 30 cases", () => expect(bad.length).toBeGreaterThanOrEqual(30));
  for (const name of bad) {
    it(`${name} prints its diagnostics, exits 1 and writes nothing`, async () => {
      const dir = join(FIXTURES, name);
      const out = join(scratch, name);
      const { status, stderr } = await run(dir, ["generate", "--out", out]);
      const expectedFile = join(dir, "diagnostics.txt");
      if (UPDATE) writeFileSync(expectedFile, stderr);
      expect(stderr).toBe(readFileSync(expectedFile, "utf8"));
      expect(status).toBe(1);
      expect(existsSync(out)).toBe(false);
      expect(stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe("golden output", () => {
  for (const name of cases.filter((c) => c.startsWith("good-"))) {
    it(`${name} generates exactly expected/`, async () => {
      const dir = join(FIXTURES, name);
      const out = join(scratch, name, "generated");
      const { status, stderr } = await run(dir, ["generate", "--out", out]);
      expect(status).toBe(0);
      // Warnings (lint findings) are part of the golden output; the closing summary line is not.
      const diagnostics = stderr.split("\n").filter((line) => line !== "" && !line.startsWith("treaty: ")).map((line) => `${line}\n`).join("");
      const diagnosticsFile = join(dir, "diagnostics.txt");
      if (UPDATE) {
        if (diagnostics === "") rmSync(diagnosticsFile, { force: true });
        else writeFileSync(diagnosticsFile, diagnostics);
      }
      expect(diagnostics).toBe(existsSync(diagnosticsFile) ? readFileSync(diagnosticsFile, "utf8") : "");
      const expectedDir = join(dir, "expected");
      if (UPDATE) {
        rmSync(expectedDir, { recursive: true, force: true });
        mkdirSync(dirname(expectedDir), { recursive: true });
        cpSync(out, expectedDir, { recursive: true });
      }
      const actual = tree(out);
      const expected = tree(expectedDir);
      expect([...actual.keys()]).toEqual([...expected.keys()]);
      for (const [path, contents] of expected) expect(actual.get(path), path).toBe(contents);
    });
  }
});
