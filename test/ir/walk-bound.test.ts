// Which versions' validators count their walk (walkSpread): those where an unbounded map or list
// holds another, as good-nested-unbounded does (test/runtime/shared-containers.test.ts walks it);
// every other version here is bounded by its contract and generates what it did before.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { walkSpread } from "../../src/ir/walk-bound.js";
import { MAX_NODES } from "../../src/runtime/max-nodes.js";
import { compile } from "../../src/pipeline.js";
import { targets } from "../support/targets.js";
import { tempProject } from "../support/temp-project.js";

describe("which versions are counted (walkSpread, the walk per reference a payload holds)", () => {
  const spreads = new Map<string, number>();
  for (const target of targets) {
    const project = compile({ root: target.root, idlDir: join(target.root, "idl") }).value!;
    for (const contract of project.contracts) for (const version of contract.versions) spreads.set(`${target.name} ${contract.name}@${version.version}`, walkSpread(project, contract, version));
  }

  it("unbounded where a map or unbounded list holds another: the fixture's version", () => {
    expect(spreads.get("good-nested-unbounded demo.nested@1.0")).toBe(Infinity);
  });

  it("bounded elsewhere: every other version here, so what they generate is unchanged", () => {
    // A list of a billion strings (good-huge-bounds) walks each once; ten maps of lists of ten
    // References (good-sensitive's history) walk a shared map ten times, a bounded list inside it once per entry.
    const others = [...spreads].filter(([name]) => !name.startsWith("good-nested-unbounded"));
    expect(others.length).toBeGreaterThan(20);
    for (const [name, spread] of others) expect([name, spread <= MAX_NODES]).toEqual([name, true]);
  });
});

describe("walkSpread of small contracts", () => {
  /** The spread of version 1.0 of a contract with `fields` (YAML, indented under `fields:`) and `types`. */
  const spread = (fields: string, types = ""): number => {
    const root = tempProject("walk-bound", {
      "idl/demo.walk.yaml": `contract: demo.walk\nowner: demo-team\nkind: event\nllm: { providers: [] }\n${types}versions:\n  "1.0":\n    fields:\n${fields}`,
    });
    const project = compile({ root, idlDir: join(root, "idl") }).value!;
    const contract = project.contracts[0]!;
    return walkSpread(project, contract, contract.versions[0]!);
  };

  it("one unbounded level is linear in its own entries; a bounded list over it multiplies by its bound", () => {
    expect(spread("      labels: { type: map, of: string }\n")).toBeLessThan(20);
    expect(spread("      many: { type: list, of: { type: map, of: string }, maxItems: 3 }\n")).toBeLessThan(20);
    // A list of a thousand items, each a list of a thousand maps: one map shared is walked a million times.
    expect(spread("      many: { type: list, of: { type: list, of: { type: map, of: string }, maxItems: 1000 }, maxItems: 1000 }\n")).toBeGreaterThan(MAX_NODES);
  });

  it("an unbounded container inside another is unbounded", () => {
    expect(spread("      deep: { type: map, of: { type: map, of: string } }\n")).toBe(Infinity);
    expect(spread("      items: { type: list, of: { type: object, fields: { tags: { type: map, of: string } } } }\n")).toBe(Infinity);
  });

  it("a recursive type counts its own values, unless a value holds an unbounded container of other values", () => {
    const node = (extra: string) => `types:\n  Node:\n    fields:\n      children: { type: list, of: Node }\n${extra}`;
    expect(spread("      root: Node\n", node(""))).toBeLessThan(20);
    expect(spread("      root: Node\n", node("      labels: { type: map, of: string }\n"))).toBe(Infinity);
  });
});
