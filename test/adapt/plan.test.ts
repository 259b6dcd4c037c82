// The adapt stage's model: which steps each version goes through to the canonical one, which of
// them lose information or need their result checked, and which stubs a person must write.
import { afterAll, describe, expect, it } from "vitest";
import { adapt } from "../../src/adapt/adapt.js";
import type { ContractAdapters, Step } from "../../src/adapt/model.js";
import { formatDiagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import { compile } from "../../src/pipeline.js";
import { createProject, type TempProject } from "./project.js";

const projects: TempProject[] = [];
afterAll(() => projects.forEach((p) => p.remove()));

const BASE = `owner: test
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
      score: { type: int, min: 0, max: 100 }
      tags: { type: list, of: { type: string, maxLength: 9 } }
`;

const planFor = (versions: string, top = ""): ContractAdapters => {
  const project = createProject({ "idl/demo/demo.item.yaml": `contract: demo.item\n${top}${BASE}${versions}` });
  projects.push(project);
  const compiled = compile({ root: project.root, idlDir: `${project.root}/idl` });
  if (hasErrors(compiled.diagnostics)) throw new Error(compiled.diagnostics.map(formatDiagnostic).join("\n"));
  return adapt(compiled.value!, { root: project.root, outDir: `${project.root}/generated` }).value.contracts.get("demo.item")!;
};

const v2 = (changes: string): ContractAdapters => planFor(`  "2.0":\n    changes:\n${changes}`);

const stubs = (plan: ContractAdapters): string[] => plan.stubs.map((s) => `${s.kind} ${s.name}`);

const step = (plan: ContractAdapters, name: string): Step => plan.steps.find((s) => s.name === name)!;

describe("stubs", () => {
  it.each([
    ["an added required field", "      - add: color\n        type: string\n", ["fill upgradeV2_0$color"]],
    ["an added optional field with a default", "      - add: color\n        type: string\n        optional: true\n        default: red\n", []],
    ["require without a default", "      - require: weight\n", ["fill upgradeV2_0$weight"]],
    ["require with a default", "      - require: weight\n        default: 0\n", []],
    ["removing a required field without a default", "      - remove: score\n", ["fill downgradeV2_0$score"]],
    ["removing a required field with a default", "      - remove: score\n        default: 0\n", []],
    ["removing an optional field", "      - remove: weight\n", []],
    ["a widening retype", "      - retype: score\n        type: number\n", []],
    ["a narrowing retype", "      - retype: score\n        type: int\n        min: 0\n        max: 10\n", ["convert upgradeV2_0$score"]],
    ["a retype to another kind", "      - retype: score\n        type: string\n", ["convert downgradeV2_0$score", "convert upgradeV2_0$score"]],
    ["a narrowing constrain", "      - constrain: sku\n        maxLength: 10\n", ["convert upgradeV2_0$sku"]],
    ["an enum value removed without a map or a fallback", "      - enum: Size\n        remove: [M]\n", ["enum upgradeV2_0Size"]],
    ["an enum value removed with a map", "      - enum: Size\n        remove: [M]\n        map: { M: L }\n", []],
    ["an enum value removed with a fallback", "      - enum: Size\n        remove: [M]\n        fallback: S\n", []],
    ["a head of a list that may be empty", "      - head: tags\n", ["fill upgradeV2_0$tags"]],
    ["a head with a default", "      - head: tags\n        default: none\n", []],
    ["a wrap (going back, a list may be empty)", "      - wrap: sku\n", ["fill downgradeV2_0$sku"]],
    ["a wrap of at least one item", "      - wrap: sku\n        minItems: 1\n", []],
    ["relax without a default", "      - relax: score\n", []],
    ["a custom change, which takes over what else needs a stub", "      - add: color\n        type: string\n      - custom: Paint it.\n", ["custom customV2_0"]],
  ])("%s", (_what, changes, expected) => {
    expect(stubs(v2(changes))).toEqual(expected);
  });

  it("an enum stub receives exactly the values that have nowhere to go", () => {
    const [stub] = v2("      - enum: Size\n        remove: [M, L]\n        map: { L: S }\n").stubs;
    expect(stub).toMatchObject({ kind: "enum", enum: "Size", values: ["M"], source: "1.0", target: "2.0" });
  });

  it("a custom stub carries every custom description and the change's location", () => {
    const [stub] = v2("      - custom: Paint it.\n      - custom: Then dry it.\n").stubs;
    expect(stub).toMatchObject({ kind: "custom", name: "customV2_0", descriptions: ["Paint it.", "Then dry it."], loc: { file: "idl/demo/demo.item.yaml", line: 20 } });
  });
});

describe("steps", () => {
  it("a rename is lossless both ways", () => {
    const plan = v2("      - rename: { from: sku, to: code }\n");
    expect([step(plan, "upgradeV2_0").exact, step(plan, "downgradeV2_0").exact]).toEqual([true, true]);
    expect(plan.versions.map((v) => v.lossless)).toEqual([true, true]);
  });

  it("a require with a default fills absent values going up, so only the way down is lossless", () => {
    const plan = v2("      - require: weight\n        default: 0\n");
    expect(step(plan, "upgradeV2_0")).toMatchObject({ exact: false, unchecked: false, defaults: [{ path: ["weight"], value: 0 }] });
    expect(step(plan, "downgradeV2_0")).toMatchObject({ exact: true, unchecked: false });
  });

  it("an add is dropped going down, and the drop is declared", () => {
    const plan = v2("      - add: color\n        type: string\n        optional: true\n");
    expect(step(plan, "downgradeV2_0")).toMatchObject({ exact: false, dropped: [["color"]] });
    expect(plan.versions[0]!.lossless).toBe(true);
  });

  it("going down a widening is unchecked: the older validator decides", () => {
    const plan = v2("      - enum: Size\n        add: { XL: Extra large. }\n      - relax: score\n");
    expect(step(plan, "upgradeV2_0")).toMatchObject({ exact: true, unchecked: false });
    expect(step(plan, "downgradeV2_0")).toMatchObject({ exact: false, unchecked: true });
    expect(plan.versions[0]).toMatchObject({ lossless: true, revalidate: false });
  });

  it("a version that re-lists its fields is matched to the one before, field by field", () => {
    const plan = planFor(`  "2.0":
    fields:
      sku: { type: string, maxLength: 40 }
      size: Size
      score: { type: int, min: 0, max: 100 }
      tags: { type: list, of: { type: string, maxLength: 9 } }
      note: { type: string, optional: true }
`);
    expect(step(plan, "upgradeV2_0")).toMatchObject({ exact: false, dropped: [["weight"]] });
    expect(plan.stubs).toEqual([]);
  });
});

describe("paths to the canonical version", () => {
  it("lead up to the newest version by default", () => {
    const plan = planFor(`  "1.1":\n    changes:\n      - add: note\n        type: string\n        optional: true\n  "2.0":\n    changes:\n      - rename: { from: sku, to: code }\n`);
    expect(plan.versions.map((v) => [v.path, v.toCanonical.map((s) => s.name), v.fromCanonical.map((s) => s.name)])).toEqual([
      [["1.0", "1.1", "2.0"], ["upgradeV1_1", "upgradeV2_0"], ["downgradeV2_0", "downgradeV1_1"]],
      [["1.1", "2.0"], ["upgradeV2_0"], ["downgradeV2_0"]],
      [["2.0"], [], []],
    ]);
  });

  it("lead down to a pinned canonical version", () => {
    const plan = planFor(`  "1.1":\n    changes:\n      - add: note\n        type: string\n        optional: true\n`, `canonical: "1.0"\n`);
    expect(plan.canonical.version).toBe("1.0");
    expect(plan.versions.map((v) => [v.path, v.toCanonical.map((s) => s.name)])).toEqual([
      [["1.0"], []],
      [["1.1", "1.0"], ["downgradeV1_1"]],
    ]);
  });

  it("go through the version both branch from when `from` branches", () => {
    const plan = planFor(`  "1.1":\n    changes:\n      - add: note\n        type: string\n        optional: true\n  "2.0":\n    from: "1.0"\n    changes:\n      - rename: { from: sku, to: code }\n`);
    expect(plan.versions[1]!.path).toEqual(["1.1", "1.0", "2.0"]);
    expect(plan.versions[1]!.toCanonical.map((s) => s.name)).toEqual(["downgradeV1_1", "upgradeV2_0"]);
  });
});

describe("layout", () => {
  it("puts the stubs beside the contract and imports each side from the other relatively", () => {
    expect(v2("      - custom: Paint it.\n").layout).toEqual({
      file: "idl/demo/demo.item.adapters.ts",
      fromGenerated: "../../idl/demo/demo.item.adapters.js",
      toGenerated: "../../generated/demo.item/index.js",
    });
  });
});
