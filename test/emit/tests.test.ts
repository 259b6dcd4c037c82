// How generated tests are written: a cases file holding each case once with the versions it
// holds in, long values described rather than spelled out, a bound's edge too long to build left
// out with the reason, and a test module of a few lines that runs the file through treaty/testing.
import { format } from "prettier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContractCases } from "../../src/cases/model.js";
import { describeText } from "../../src/cases/mutations.js";
import { emitTests } from "../../src/emit/tests.js";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";
import { build, MAX_BUILT_LENGTH, type Case, type CasesFile } from "../../src/testing/index.js";
import { createProject, type TempProject } from "../adapt/project.js";

describe("a long value in a cases file", () => {
  it("is a string's parts, a run of one character described, and builds back to the string", () => {
    const value = `TASK-${"0".repeat(59)}!`;
    const made = describeText(value);
    expect(made).toEqual({ text: ["TASK-", { repeat: "0", times: 59 }, "!"] });
    expect(build(made!)).toBe(value);
    expect(describeText("x".repeat(15))).toBeUndefined();
    const astral = "😀".repeat(20);
    expect(describeText(astral)).toEqual({ text: [{ repeat: "😀", times: 20 }] });
  });

  it("builds a list of copies of one item", () => {
    const item = { claim_id: "c0", refs: ["src://a"] };
    expect(build({ list: item, times: 500 })).toEqual(Array.from({ length: 500 }, () => item));
  });
});

const CONTRACT = [
  "contract: demo.wide",
  "owner: tests",
  "versions:",
  '  "1.0":',
  "    fields:",
  "      name: { type: string, maxLength: 8 }",
  "      text: { type: string, maxLength: 1000000000 }",
  "      long: { type: string, maxLength: 200000 }",
  "      tags: { type: list, of: { type: string, maxLength: 3 }, maxItems: 4000000000 }",
  "      few: { type: list, of: int, minItems: 1, maxItems: 9 }",
  '  "1.1":',
  "    changes:",
  "      - add: note",
  "        optional: true",
  "        type: { type: string, maxLength: 4 }",
  "",
].join("\n");

describe("the cases file of a contract", () => {
  let project: TempProject;
  let file: CasesFile;
  const titled = (title: string): Case[] => file.cases.filter((c) => c.title === title);

  beforeAll(async () => {
    project = createProject({ "idl/demo.wide.yaml": CONTRACT });
    const { status, stderr } = await project.treaty("generate");
    expect(status, stderr).toBe(0);
    file = JSON.parse(project.read("generated/demo.wide/demo.wide.cases.json")) as CasesFile;
  });
  afterAll(() => project.remove());

  it("holds a case derived alike in two versions once, with both versions", () => {
    expect(titled("rejects a missing name")).toEqual([{ title: "rejects a missing name", versions: ["1.0", "1.1"], edits: [{ remove: "/name" }], expect: { path: "/name", code: "required" } }]);
    expect(titled("rejects note above maxLength 4").map((c) => c.versions)).toEqual([["1.1"]]);
    expect(file.versions).toEqual(["1.0", "1.1"]);
    expect(Object.keys(file.bases)).toEqual(["1.0", "1.1"]);
  });

  it("describes a long edge, and leaves out one too long to build, saying why", () => {
    const at = titled("accepts long at maxLength 200000")[0]!;
    expect(at).toMatchObject({ edits: [{ set: "/long", make: { text: [{ repeat: "x", times: 200_000 }] } }] });
    expect(titled("rejects few above maxItems 9")[0]).toMatchObject({ edits: [{ set: "/few", make: { list: 0, times: 10 } }] });
    const huge = file.cases.filter((c) => "skip" in c);
    expect(huge.map((c) => c.title).sort()).toEqual([
      "accepts tags at maxItems 4000000000",
      "accepts text at maxLength 1000000000",
      "rejects tags above maxItems 4000000000",
      "rejects text above maxLength 1000000000",
    ]);
    expect(titled("rejects text above maxLength 1000000000")[0]).toEqual({
      title: "rejects text above maxLength 1000000000",
      versions: ["1.0", "1.1"],
      expect: { path: "/text", code: "maxLength" },
      skip: `a value of 1,000,000,001 characters is over the ${MAX_BUILT_LENGTH.toLocaleString("en")} treaty builds for a test`,
    });
  });

  it("is read by a test module of a few lines", () => {
    const module = project.read("generated/demo.wide/demo.wide.test.ts");
    expect(module).toContain('const suite = readCases(registration, import.meta.url, "./demo.wide.cases.json");');
    expect(module.split("\n").length).toBeLessThan(20);
  });
});

describe("the test module", () => {
  // Written in prettier's layout, so no run formats it: the call naming the cases file on one line
  // while it fits, else an argument a line.
  it.each(["demo.wide", "a_rather_long_domain.and_a_contract_name_long_enough_to_break"])("of %s is what prettier prints, and says so", async (name) => {
    const file = emitTests({ contract: { name, file: `idl/${name}.yaml`, canonical: "1.0" } } as unknown as ContractCases);
    expect(file.laidOut?.get(file.contents)).toBe(file.contents);
    expect(file.contents).toBe(await format(file.contents, { ...PRETTIER_OPTIONS, parser: "babel-ts" }));
    expect(file.contents).toContain(`./${name}.cases.json`);
  });
});
