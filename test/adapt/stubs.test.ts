// The hand-owned stubs file: created when missing, extended with the stubs changes need, never
// rewritten; stubs no change needs are reported; `--check` reports a missing stub instead of adding it.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createProject } from "./project.js";

const FILE = "idl/demo/demo.item.adapters.ts";

const contract = (versions: string): string => `contract: demo.item
summary: An item of the shop.
owner: shop-team
kind: event
enums:
  Size:
    values:
      S: Small.
      M: Medium.
      L: Large.
versions:
  "1.0":
    fields:
      sku: { type: string, maxLength: 20 }
      size: Size
      weight: { type: number, min: 0, optional: true }
${versions}`;

const V2_0 = `  "2.0":
    changes:
      - require: weight
      - enum: Size
        remove: [M]
`;
const V2_0_WITHOUT_REQUIRE = `  "2.0":
    changes:
      - enum: Size
        remove: [M]
`;
const V3_0 = `  "3.0":
    changes:
      - add: color
        type: string
        maxLength: 10
`;

const exported = (text: string): string[] => [...text.matchAll(/^export (?:function|const) ([\w$]+)/gm)].map((m) => m[1]!);

describe("the stubs file", () => {
  const project = createProject({ "idl/demo/demo.item.yaml": contract(V2_0) });
  afterAll(() => project.remove());

  it("is created with a typed stub per underivable change, each with a doc comment", async () => {
    expect(existsSync(join(project.root, FILE))).toBe(false);
    const { status, stderr } = await project.treaty("generate");
    expect(status).toBe(0);
    const text = project.read(FILE);
    expect(exported(text)).toEqual(["upgradeV2_0$weight", "upgradeV2_0Size"]);
    expect(text).toContain("export function upgradeV2_0$weight(source: generated.v1_0.DemoItemV1_0): treaty.FieldAt<generated.v2_0.DemoItemV2_0, \"weight\"> {");
    expect(text).toContain('export function upgradeV2_0Size(value: "M"): generated.v2_0.Size {');
    expect(text).toMatch(/\/\*\*\n \* demo\.item 1\.0 → 2\.0: `require: weight` declares no default: return `weight` for a 1\.0 payload that has none\.\n \*\//);
    expect(text).toContain('throw new treaty.AdapterNotImplemented("demo.item", "upgradeV2_0$weight");');
    expect(stderr).toContain(`treaty: added adapter stub upgradeV2_0$weight to ${FILE}`);
    expect(project.typecheck()).toEqual([]);
  });

  it("is byte-identical after a body is written and treaty runs again", async () => {
    const edited = project
      .read(FILE)
      .replace('throw new treaty.AdapterNotImplemented("demo.item", "upgradeV2_0$weight");', "return 0; // unknown weight: none recorded")
      .concat("\n// A helper of our own.\nexport const GRAMS_PER_KG = 1000;\n");
    project.write(FILE, edited);
    const { status, stderr } = await project.treaty("generate");
    expect(status).toBe(0);
    expect(stderr).not.toContain("added adapter stub");
    expect(project.read(FILE)).toBe(edited);
  });

  it("gains only the new stub when a new version needs one", async () => {
    const before = project.read(FILE);
    project.write("idl/demo/demo.item.yaml", contract(V2_0 + V3_0));
    expect((await project.treaty("generate")).status).toBe(0);
    const after = project.read(FILE);
    expect(after.startsWith(before)).toBe(true);
    expect(exported(after.slice(before.length))).toEqual(["upgradeV3_0$color"]);
    expect(project.typecheck()).toEqual([]);
  });

  it("reports, where it is, a stub no change needs any more, and leaves it", async () => {
    const before = project.read(FILE);
    project.write("idl/demo/demo.item.yaml", contract(V2_0_WITHOUT_REQUIRE + V3_0));
    const { status, stderr } = await project.treaty("generate");
    expect(status).toBe(0);
    const line = before.split("\n").findIndex((l) => l.startsWith("export function upgradeV2_0$weight")) + 1;
    expect(stderr).toContain(`${FILE}:${line}:1 - warning orphan-stub: adapter stub 'upgradeV2_0$weight' is not needed any more; delete it`);
    expect(project.read(FILE)).toBe(before);
  });

  it("adds the imports it needs when someone removed them, and keeps everything else", async () => {
    const withoutRuntime = project.read(FILE).replace('import * as treaty from "treaty/runtime";\n', "");
    project.write(FILE, withoutRuntime);
    project.write("idl/demo/demo.item.yaml", contract(V2_0_WITHOUT_REQUIRE + V3_0 + `  "4.0":\n    changes:\n      - add: stock\n        type: int\n`));
    expect((await project.treaty("generate")).status).toBe(0);
    const text = project.read(FILE);
    expect(text).toContain('import * as treaty from "treaty/runtime";');
    expect(text).toContain("export const GRAMS_PER_KG = 1000;");
    expect(text).toContain("return 0; // unknown weight: none recorded");
    expect(exported(text)).toEqual(["upgradeV2_0$weight", "upgradeV2_0Size", "GRAMS_PER_KG", "upgradeV3_0$color", "upgradeV4_0$stock"]);
  });
});

describe("generate --check", () => {
  const project = createProject({ "idl/demo/demo.item.yaml": contract(V2_0) });
  afterAll(() => project.remove());

  it("reports a missing stub as an error, at the change, and writes nothing", async () => {
    expect((await project.treaty("generate")).status).toBe(0);
    expect((await project.treaty("generate", "--check")).status).toBe(0);
    const stubs = project.read(FILE);
    const index = project.read("generated/index.ts");
    const yaml = contract(V2_0 + V3_0);
    project.write("idl/demo/demo.item.yaml", yaml);
    const { status, stderr } = await project.treaty("generate", "--check");
    expect(status).toBe(1);
    const line = yaml.split("\n").findIndex((l) => l.includes("- add: color")) + 1;
    expect(stderr).toContain(`idl/demo/demo.item.yaml:${line}:9 - error missing-stub: adapter stub 'upgradeV3_0$color' is missing from ${FILE}; run 'treaty generate' to add it`);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(project.read(FILE)).toBe(stubs);
    expect(project.read("generated/index.ts")).toBe(index);
    expect(existsSync(join(project.root, "generated/demo.item/v3_0"))).toBe(false);
  });

  it("reports a missing stubs file the same way, and does not create it", async () => {
    rmSync(join(project.root, FILE));
    const { status, stderr } = await project.treaty("generate", "--check");
    expect(status).toBe(1);
    expect(stderr.match(/error missing-stub/g)).toHaveLength(3);
    expect(existsSync(join(project.root, FILE))).toBe(false);
  });
});
