// The generated tests can fail: each break below edits a copy of a generated validator (task.result's
// 1.2, demo.grid's and demo.anchors' 1.0) the way a bug in treaty's validator emitter would, and the copy's generated
// tests must fail — with the very test named for the broken check among the failures — while an
// intact copy passes.
//
// How a break finds its place: the emitted validator reads each field once per function, as
// `const fN = v.<field>;`, and every statement up to the next field's read checks that field (in
// `is_*` and in `err_*`). A break edits only those statements, so it hits the named field and
// nothing else, whatever the local's number or the file's layout.
//
// A case runs against every version it holds in (`1.0–1.2 rejects a missing task_id`): breaking
// only 1.2, the last or the first version of such a range, must still fail that case.
//
// demo.grid, generated here, has bounds beside a `multipleOf`: a value crossing a bound off the
// grid fails multipleOf too, so check() without the bound still rejected it and no test noticed.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { runGeneratedTests, type VitestReport } from "../support/run-generated-tests.js";

const ROOT = join(import.meta.dirname, "../..");
/** Between the files while a break edits them as one text. */
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

/** Drops `comparison` of `field` (` && fN <= 100`) from check() alone; errors() still reports the bound. */
const dropFromCheck = (source: string, field: string, comparison: string): string =>
  editFunction(source, "is_root", (code) => editField(code, field, (fieldCode, f) => fieldCode.replace(` && ${f} ${comparison}`, "")));

/** The hoisted regex the checks of `field` name. */
const regexOf = (source: string, field: string): string => {
  let regex: string | undefined;
  editField(source, field, (code) => {
    regex ??= /\b(re_\w+)\.test\(/.exec(code)?.[1];
    return code;
  });
  return regex!;
};

/** Drops the `anchors` (`^`, `$` or both) from the declaration of the hoisted regex `regex`. */
const dropAnchors = (source: string, regex: string, anchors: "^" | "$" | "^$"): string =>
  source.replace(new RegExp(`(const ${regex} = new RegExp\\(")\\^(.*)\\$(", "u"\\))`), (_, open: string, body: string, close: string) =>
    `${open}${anchors.includes("^") ? "" : "^"}${body}${anchors.includes("$") ? "" : "$"}${close}`,
  );

const TASK_BREAKS: readonly Break[] = [
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
    caughtBy: "1.0–1.2 rejects task_id with text before a match of ^TASK-[0-9]+$",
    apply: (source) => dropAnchors(source, regexOf(source, "task_id"), "^$"),
  },
  { name: "drops the ^ of task_id's pattern", caughtBy: "1.0–1.2 rejects task_id with text before a match of ^TASK-[0-9]+$", apply: (source) => dropAnchors(source, regexOf(source, "task_id"), "^") },
  { name: "drops the $ of task_id's pattern", caughtBy: "1.0–1.2 rejects task_id with text after a match of ^TASK-[0-9]+$", apply: (source) => dropAnchors(source, regexOf(source, "task_id"), "$") },
];

// demo.anchors, generated here: one case with text around a match caught only a validator that
// dropped both anchors (`~a~` still fails `[a-z]+$`), its string could be shorter than the
// field's minLength (check() then rejected it without the pattern), and a map's key pattern had no
// such case at all.
const ANCHOR_BREAKS: readonly Break[] = [
  { name: "drops the ^ of code's pattern", caughtBy: "1.0 rejects code with text before a match of ^[a-z]+$", apply: (source) => dropAnchors(source, "re_root_code", "^") },
  { name: "drops the $ of code's pattern", caughtBy: "1.0 rejects code with text after a match of ^[a-z]+$", apply: (source) => dropAnchors(source, "re_root_code", "$") },
  {
    name: "drops the ^ of code's pattern (minLength 4) from check() alone",
    caughtBy: "1.0 rejects code with text before a match of ^[a-z]+$",
    apply: (source) => editFunction(source, "is_root", (code) => editField(code, "code", (fieldCode) => fieldCode.replace("re_root_code.test(", 'new RegExp("[a-z]+$", "u").test('))),
  },
  { name: "drops the ^ of the key pattern of buckets", caughtBy: "1.0 rejects buckets.~aa as a key with text before a match of ^[a-z]{2,8}$", apply: (source) => dropAnchors(source, "re_root_buckets_key", "^") },
  { name: "drops the $ of the key pattern of buckets", caughtBy: "1.0 rejects buckets.aa~ as a key with text after a match of ^[a-z]{2,8}$", apply: (source) => dropAnchors(source, "re_root_buckets_key", "$") },
];

const ANCHOR_IDL = [
  "contract: demo.anchors",
  "owner: tests",
  "versions:",
  '  "1.0":',
  "    fields:",
  '      code: { type: string, minLength: 4, maxLength: 16, pattern: "^[a-z]+$" }',
  '      buckets: { type: map, of: { type: int, min: 0, max: 9 }, keys: { pattern: "^[a-z]{2,8}$" } }',
  "",
].join("\n");

const GRID_BREAKS: readonly Break[] = [
  { name: "drops the max of n (100, multipleOf 7) from check() alone", caughtBy: "1.0 rejects n above max 100", apply: (source) => dropFromCheck(source, "n", "<= 100") },
  { name: "drops the min of n (0, multipleOf 7) from check() alone", caughtBy: "1.0 rejects n below min 0", apply: (source) => dropFromCheck(source, "n", ">= 0") },
  { name: "drops the max of x (10, multipleOf 0.5) from check() alone", caughtBy: "1.0 rejects x above max 10", apply: (source) => dropFromCheck(source, "x", "<= 10") },
  { name: "drops the min of x (-10, multipleOf 0.5) from check() alone", caughtBy: "1.0 rejects x below min -10", apply: (source) => dropFromCheck(source, "x", ">= -10") },
  { name: "drops the exclusiveMax of e (100, multipleOf 7) from check() alone", caughtBy: "1.0 rejects e at exclusiveMax 100", apply: (source) => dropFromCheck(source, "e", "< 100") },
];

const GRID_IDL = [
  "contract: demo.grid",
  "owner: tests",
  "versions:",
  '  "1.0":',
  "    fields:",
  "      n: { type: int, min: 0, max: 100, multipleOf: 7 }",
  "      x: { type: number, min: -10, max: 10, multipleOf: 0.5 }",
  "      e: { type: int, exclusiveMin: 0, exclusiveMax: 100, multipleOf: 7 }",
  "",
].join("\n");

interface Target {
  readonly contract: string;
  /** Its contract file, generated here; none: this repo's own generated code. */
  readonly idl?: string;
  /** The code the broken version's validator runs, edited as one text (a field checked in one file may use a pattern declared in another). */
  readonly files: readonly string[];
  readonly breaks: readonly Break[];
  /** Fewer generated tests than this: they did not all run. */
  readonly atLeast: number;
}

const TARGETS: readonly Target[] = [
  // 1.2's own validator and what it imports from the versions' shared validators.ts.
  { contract: "task.result", files: ["v1_2/validator.ts", "validators.ts"], breaks: TASK_BREAKS, atLeast: 100 },
  { contract: "demo.grid", idl: GRID_IDL, files: ["v1_0/validator.ts"], breaks: GRID_BREAKS, atLeast: 20 },
  { contract: "demo.anchors", idl: ANCHOR_IDL, files: ["v1_0/validator.ts"], breaks: ANCHOR_BREAKS, atLeast: 15 },
];

const scratch = join(ROOT, ".scratch");
let dir: string;
let report: VitestReport;
const copiesOf = (target: Target) =>
  [{ name: "intact", caughtBy: "", apply: (source: string) => source }, ...target.breaks].map((b, i) => ({ ...b, folder: `${target.contract}-copy${i}` }));

/** The titles of the copy's generated tests that failed. */
const failures = (target: Target, folder: string): string[] => {
  const file = report.testResults.find((r) => r.name.includes(`/${folder}/`));
  expect(file, `no results for ${folder}`).toBeDefined();
  expect(file!.assertionResults.length).toBeGreaterThan(target.atLeast);
  return file!.assertionResults.filter((a) => a.status === "failed").map((a) => a.title);
};

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true });
  dir = mkdtempSync(join(scratch, "generated-tests-catch-"));
  // The contracts given here, generated in a project beside the copies.
  const project = join(dir, "project");
  mkdirSync(join(project, "idl"), { recursive: true });
  for (const target of TARGETS) if (target.idl !== undefined) writeFileSync(join(project, "idl", `${target.contract}.yaml`), target.idl);
  let stderr = "";
  expect(await runCli(["generate"], { cwd: project, stdout: () => {}, stderr: (t) => (stderr += t) }), stderr).toBe(0);
  for (const target of TARGETS) {
    const from = join(target.idl === undefined ? ROOT : project, "generated", target.contract);
    const original = target.files.map((file) => readFileSync(join(from, file), "utf8")).join(FILE_BREAK);
    for (const copy of copiesOf(target)) {
      const to = join(dir, copy.folder, target.contract);
      cpSync(from, to, { recursive: true });
      const broken = copy.apply(original);
      if (copy.name !== "intact") expect(broken, `${copy.name}: the break found nothing to edit`).not.toBe(original);
      const parts = broken.split(FILE_BREAK);
      expect(parts).toHaveLength(target.files.length);
      target.files.forEach((file, i) => writeFileSync(join(to, file), parts[i]!));
    }
  }
  // Every copy in one vitest run, with treaty's runtime from source as in this repo's config.
  report = runGeneratedTests(dir, "*-copy*/**/*.test.ts");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const target of TARGETS) {
  describe(`the generated tests of ${target.contract} catch a broken validator`, () => {
    const [intact, ...broken] = copiesOf(target);
    it("pass against an intact copy", () => {
      expect(failures(target, intact!.folder)).toEqual([]);
    });
    for (const copy of broken) {
      it(`fail when the validator ${copy.name}`, () => {
        expect(failures(target, copy.folder)).toContain(copy.caughtBy);
      });
    }
  });
}
