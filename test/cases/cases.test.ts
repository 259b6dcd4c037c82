// The stage that chooses the generated tests: the pattern sampler, the minimal-value synthesizer
// (checked against the generated validators, not against itself), and the warning when a version
// has no value to mutate from.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nonMatching, samplePattern, withTextBeside } from "../../src/cases/pattern-sample.js";
import { createSynthesizer } from "../../src/cases/synthesize.js";
import type { TypeNode } from "../../src/ir/model.js";
import { contractDir, versionId } from "../../src/ir/names.js";
import { compile } from "../../src/pipeline.js";
import type { Issue } from "../../src/runtime/index.js";
import * as formats from "../../src/runtime/formats.js";
import type { CasesFile } from "../../src/testing/index.js";
import { createProject } from "../adapt/project.js";
import { targets as allTargets } from "../support/targets.js";

const targets = allTargets.map((t) => ({ ...t, project: compile({ root: t.root, idlDir: join(t.root, "idl") }).value! }));

/** Every pattern the contracts use, on strings and in the IDL's own examples of the subset. */
const patterns = (): string[] => {
  const found = new Set<string>();
  const visit = (type: TypeNode): void => {
    if (type.kind === "string" && type.pattern !== undefined) found.add(type.pattern);
    if (type.kind === "list" || type.kind === "map") visit(type.of);
    if (type.kind === "object") type.fields.forEach((f) => visit(f.type));
  };
  for (const { project } of targets) for (const c of project.contracts) for (const v of c.versions) [...v.fields, ...[...v.types.values()].flatMap((t) => t.fields)].forEach((f) => visit(f.type));
  return [...found].sort();
};

describe("samplePattern", () => {
  const used = [...patterns(), "^(ab|c)?d{2,3}[^a-z]\\.x*$", "^\\w+@\\w+\\.(com|org)$", "^[\\-+]?[0-9]{1,3}$"];

  it.each(used)("samples %s, shortest and at a chosen length", (pattern) => {
    const re = new RegExp(pattern, "u");
    const shortest = samplePattern(pattern);
    expect(shortest).toBeDefined();
    expect(re.test(shortest!)).toBe(true);
    const longer = samplePattern(pattern, [...shortest!].length + 7);
    if (longer !== undefined) {
      expect([...longer].length).toBe([...shortest!].length + 7);
      expect(re.test(longer)).toBe(true);
    }
  });

  it("samples the contracts' patterns at any length their repeats allow", () => {
    expect(samplePattern("^TASK-[0-9]+$", 64)).toBe(`TASK-${"0".repeat(59)}`);
    expect(samplePattern("^[0-9]{2}$", 3)).toBeUndefined();
  });

  it.each([
    ["^(?=a)a$", "a", undefined],
    ["^(a)\\1$", "aa", undefined],
    ["\\bword\\b", "word", "--word"],
    ["^\\p{Lu}\\p{Ll}{2,}$", "Aaa", "Aaaaaa"],
    // Unanchored at the end: the subset's sample cannot grow, the automaton's can.
    ["^usr_", "usr_", "usr_AA"],
  ])("samples %s, outside the subset, from its automaton", (pattern, shortest, six) => {
    expect(samplePattern(pattern)).toBe(shortest);
    expect(samplePattern(pattern, 6)).toBe(six);
  });

  it("gives no sample for a pattern no automaton holds (a backreference to a group of any length)", () => {
    expect(samplePattern("^([ab]+)\\1$")).toBeUndefined();
  });

  it("finds strings an anchored pattern rejects", () => {
    expect(nonMatching("^TASK-[0-9]+$")).toBe("~");
    expect(nonMatching(".*")).toBeUndefined();
    // Every string tried matches; the automaton finds one that does not.
    expect(nonMatching("^[^\\n]*$")).toBe("\n");
    expect(withTextBeside("^TASK-[0-9]+$", "before")).toBe("~TASK-0");
    expect(withTextBeside("^TASK-[0-9]+$", "after")).toBe("TASK-0~");
    // At a length, so that a minLength holds and only the anchor rejects it.
    expect(withTextBeside("^[a-z]+$", "before", 3)).toBe("~aaa");
    // Anchored at one end only: text beside the other end still matches.
    expect(withTextBeside("^TASK-[0-9]+", "before")).toBe("~TASK-0");
    expect(withTextBeside("^TASK-[0-9]+", "after")).toBeUndefined();
    expect(withTextBeside("TASK-[0-9]+", "before")).toBeUndefined();
  });
});

interface Validator {
  check(value: unknown): boolean;
  errors(value: unknown): Issue[];
}

describe("the synthesized minimal value", () => {
  for (const target of targets) {
    const synthesizer = createSynthesizer(target.project);
    for (const contract of target.project.contracts) {
      for (const version of contract.versions) {
        it(`${target.name}: ${contract.name} ${version.version} passes its generated validator, the same every time`, async () => {
          const made = synthesizer.payload(contract, version);
          expect(made).toHaveProperty("value");
          const validator = (await import(join(target.out, contractDir(contract.name), versionId(version.version), "validator.ts"))) as Validator;
          const value = (made as { value: unknown }).value;
          expect(validator.errors(value)).toEqual([]);
          expect(validator.check(value)).toBe(true);
          expect(synthesizer.payload(contract, version)).toEqual(made);
        });
      }
    }
  }
});

describe("a version without a value to mutate from", () => {
  const project = createProject({
    "idl/demo.codes.yaml": [
      "contract: demo.codes",
      "owner: tests",
      "versions:",
      '  "1.0":',
      "    fields:",
      // No string of at most 3 characters matches: nothing to synthesize.
      "      code: { type: string, maxLength: 3, pattern: \"^[A-Z]{5}$\" }",
      "",
    ].join("\n"),
  });
  afterAll(() => project.remove());

  it("is a no-valid-value warning at the version, and a skipped case in its generated tests", async () => {
    const { status, stderr } = await project.treaty("generate");
    expect(status).toBe(0);
    expect(stderr).toMatch(/^idl\/demo\.codes\.yaml:4:3 - warning no-valid-value: version 1\.0 has no valid example and treaty cannot synthesize one \(code: treaty cannot synthesize a string matching/m);
    const cases = JSON.parse(project.read("generated/demo.codes/demo.codes.cases.json")) as CasesFile;
    const why = expect.stringMatching(/^treaty cannot synthesize a valid value \(code: treaty cannot synthesize a string matching/);
    expect(cases.bases["1.0"]).toEqual({ missing: why });
    expect(cases.cases).toContainEqual({ title: "mutations need a valid example", versions: ["1.0"], skip: why });
    expect(cases.cases.filter((c) => "edits" in c)).toEqual([]);
  });

  it("is the same warning from check, which generates nothing", async () => {
    const { status, stderr } = await project.treaty("check");
    expect(status).toBe(0);
    expect(stderr).toMatch(/^idl\/demo\.codes\.yaml:4:3 - warning no-valid-value: version 1\.0 has no valid example and treaty cannot synthesize one/m);
  });
});

describe("the value a format case breaks a short string with", () => {
  // mutations.ts puts a space where `invalid <format>` is past the field's maxLength.
  it.each(Object.entries(formats).filter(([name]) => name.startsWith("is")))("is no value of %s", (_, check) => {
    expect((check as (s: string) => boolean)(" ")).toBe(false);
  });
});
