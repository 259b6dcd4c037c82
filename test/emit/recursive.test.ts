// Recursive named types (good-recursive): validators bound how deep a value of a recursive type
// nests (`maxDepth`, default 64) and report `depth` past it; a hostile payload 100,000 levels deep
// gives that issue from check, errors, decode, snapshot and redact, never a RangeError. JSON Schema
// cannot say the bound, so Ajv agrees with the validators on values within it (differential.test.ts
// runs over this fixture too) and disagrees only past it, as here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Compile } from "typebox/compile";
import { describe, expect, it } from "vitest";
import { createRuntime, redact, snapshot } from "../../src/runtime/index.js";
import { DEFAULT_MAX_DEPTH } from "../../src/ir/recursion.js";
import { registry } from "../fixtures/good-recursive/expected/index.js";
import * as tree from "../fixtures/good-recursive/expected/demo.tree/v1_0/index.js";
import { DemoTreeV1_0Schema, TreeNodeSchema } from "../fixtures/good-recursive/expected/demo.tree/v1_0/schema.js";
import * as thread from "../fixtures/good-recursive/expected/demo.thread/v1_0/index.js";

const EXPECTED = join(import.meta.dirname, "../fixtures/good-recursive/expected");
const TREE_DEPTH = 16; // TreeNode's maxDepth in the fixture

/** A tree `levels` nodes deep, each the only child of the one above; built in a loop, as a hostile sender would. */
const chain = (levels: number): Record<string, unknown> => {
  let node: Record<string, unknown> = { label: "leaf", children: [] };
  for (let i = 1; i < levels; i++) node = { label: "n", children: [node] };
  return node;
};

/** A document whose sections nest `levels` deep (Section → Paragraph → Section ...). */
const sections = (levels: number): Record<string, unknown> => {
  let section: Record<string, unknown> = { title: "end", paragraphs: [] };
  for (let i = 1; i < levels; i++) section = { title: "s", paragraphs: [{ text: "p", subsection: section }] };
  return section;
};

const payload = (t: unknown, document: unknown = { title: "T", paragraphs: [] }) => ({ contract: "demo.tree", version: "1.0", tree: t, document });

const childPointer = (levels: number): string => "/tree" + "/children/0".repeat(levels);

describe("recursive types: the depth bound", () => {
  it("a tree exactly maxDepth deep passes; one level more fails with depth at the first node past it", () => {
    expect(tree.check(payload(chain(TREE_DEPTH)))).toBe(true);
    expect(tree.errors(payload(chain(TREE_DEPTH)))).toEqual([]);
    expect(tree.check(payload(chain(TREE_DEPTH + 1)))).toBe(false);
    expect(tree.errors(payload(chain(TREE_DEPTH + 1)))).toEqual([expect.objectContaining({ path: childPointer(TREE_DEPTH), code: "depth" })]);
  });

  it("Ajv, which JSON Schema gives no bound, accepts the too-deep tree: the bound is the validators' own", () => {
    const schema = JSON.parse(readFileSync(join(EXPECTED, "demo.tree/v1_0/schema.json"), "utf8")) as Record<string, unknown>;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(payload(chain(TREE_DEPTH)))).toBe(true);
    expect(validate(payload(chain(TREE_DEPTH + 1)))).toBe(true);
  });

  it("without maxDepth the default bound holds, counted over every recursive type on the way (Section and Paragraph each count)", () => {
    // Each section level is a Section and a Paragraph: the default bound allows half as many sections.
    const levels = DEFAULT_MAX_DEPTH / 2;
    expect(tree.check(payload(chain(1), sections(levels)))).toBe(true);
    expect(tree.check(payload(chain(1), sections(levels + 1)))).toBe(false);
    expect(tree.errors(payload(chain(1), sections(levels + 1)))).toEqual([expect.objectContaining({ code: "depth" })]);
  });

  it("a bound met deep in one branch leaves the siblings' count as it was", () => {
    const wide = { label: "root", children: [chain(TREE_DEPTH - 1), chain(TREE_DEPTH - 1)] };
    expect(tree.check(payload(wide))).toBe(true);
  });

  it("a JS value that contains itself fails with depth, not a stack overflow", () => {
    const node: Record<string, unknown> = { label: "loop", children: [] };
    (node["children"] as unknown[]).push(node);
    expect(tree.check(payload(node))).toBe(false);
    expect(tree.errors(payload(node))).toContainEqual(expect.objectContaining({ code: "depth" }));
  });
});

describe("recursive types: the count of values (MAX_NODES)", () => {
  /** A chain 15 nodes deep whose last node holds `leaves` leaves by key, the last one's label too long. */
  const broadAtTheBottom = (leaves: number) => {
    const by_key: Record<string, unknown> = {};
    for (let i = 0; i < leaves; i++) by_key[`k${i}`] = { label: i === leaves - 1 ? "x".repeat(41) : "leaf", children: [] };
    let node: Record<string, unknown> = { label: "n", children: [], by_key };
    for (let i = 1; i < TREE_DEPTH - 1; i++) node = { label: "n", children: [node] };
    return node;
  };
  const leafPath = (leaves: number) => childPointer(TREE_DEPTH - 2) + `/by_key/k${leaves - 1}/label`;

  it("errors counts each value once: a tree far below the bound with one bad leaf deep inside has that leaf's issue", () => {
    // errors() once checked each part before descending into a failing one, so it walked the bad
    // leaf's branch once per level above it (here some 30 times 40,000 values); those walks counted
    // as values once, and the tree had `depth` issues (too many values), the small document too.
    const value = payload(broadAtTheBottom(40_000));
    expect(tree.check(value)).toBe(false);
    expect(tree.errors(value)).toEqual([expect.objectContaining({ path: leafPath(40_000), code: "maxLength" })]);
    const outcome = createRuntime(registry).decode("demo.tree", value);
    expect(outcome.ok).toBe(false);
    // decode masks the map's key (keys are data).
    if (!outcome.ok) expect(outcome.issues).toEqual([expect.objectContaining({ path: leafPath(40_000).replace("k39999", "*"), code: "maxLength" })]);
  });

  it("a JS value that shares one node 4^16 times over is still refused with depth past the millionth value, the document after it too", () => {
    let node: Record<string, unknown> = { label: "leaf", children: [] };
    for (let i = 1; i < TREE_DEPTH; i++) node = { label: "n", children: [node, node, node, node] };
    const value = payload(node);
    expect(tree.check(value)).toBe(false);
    expect(tree.read(value)).toBeUndefined();
    const issues = tree.errors(value);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.every((i) => i.code === "depth")).toBe(true);
    expect(issues.at(-1)?.path).toBe("/document");
  });
});

describe("recursive types: a hostile payload 100,000 levels deep", () => {
  const deep = payload(chain(100_000));
  const text = `{"contract":"demo.tree","version":"1.0","document":{"title":"T","paragraphs":[]},"tree":${'{"label":"n","children":['.repeat(100_000)}${"]}".repeat(100_000)}}`;

  it("check and errors report depth", () => {
    expect(tree.check(deep)).toBe(false);
    expect(tree.errors(deep)).toEqual([expect.objectContaining({ path: childPointer(TREE_DEPTH), code: "depth" })]);
  });

  it("decode, of the value and of its JSON text, fails with depth", () => {
    const runtime = createRuntime(registry);
    for (const input of [deep, text]) {
      const outcome = runtime.decode("demo.tree", input);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.issues).toContainEqual(expect.objectContaining({ code: "depth" }));
    }
  });

  it("snapshot copies it whole; redact cuts it off at its bound", () => {
    // Walked in a loop: JSON.stringify itself recurses, and would overflow here.
    let levels = 0;
    for (let node = (snapshot(deep) as typeof deep).tree as { children: unknown[] } | undefined; node; node = node.children[0] as typeof node) levels++;
    expect(levels).toBe(100_000);
    const redacted = JSON.stringify(redact(deep, tree.shape, { internal: true }));
    expect(redacted).toContain("[redacted]");
    expect(redacted.length).toBeLessThan(100_000);
  });

  it("a thread whose replies nest 100,000 deep is rejected at its own maxDepth (8)", () => {
    let comment: Record<string, unknown> = { text: "x", replies: [] };
    for (let i = 0; i < 100_000; i++) comment = { text: "x", replies: [comment] };
    const issues = thread.errors({ contract: "demo.thread", version: "1.0", thread_id: "TH-1", root: comment });
    expect(issues).toEqual([expect.objectContaining({ path: "/root" + "/replies/0".repeat(8), code: "depth" })]);
  });
});

describe("recursive types: TypeBox", () => {
  it("Type.Cyclic schemas accept what the validator accepts within the bound", () => {
    const root = Compile(DemoTreeV1_0Schema);
    const node = Compile(TreeNodeSchema);
    for (const levels of [1, 3, TREE_DEPTH]) {
      expect(root.Check(payload(chain(levels)))).toBe(true);
      expect(node.Check(chain(levels))).toBe(true);
    }
    expect(node.Check({ label: "x", children: [{ label: 1, children: [] }] })).toBe(false);
    expect(node.Check({ label: "x", children: [], parent: null })).toBe(true);
    expect(node.Check({ label: "x", children: [], by_key: { a: { label: "y", children: [] } } })).toBe(true);
    expect(node.Check({ label: "x", children: [], by_key: { a: { label: "y" } } })).toBe(false);
  });
});

describe("recursive types: the MCP projection", () => {
  it("writes each recursive type once in $defs, and Ajv on its inputSchema accepts the trees the validator accepts", () => {
    const mcp = JSON.parse(readFileSync(join(EXPECTED, "demo.tree/v1_0/llm/mcp.json"), "utf8")) as { tool: { inputSchema: Record<string, unknown> } };
    const input = mcp.tool.inputSchema;
    expect(Object.keys(input["$defs"] as object).sort()).toEqual(["Paragraph", "Section", "TreeNode"]);
    const validate = new Ajv2020({ strict: false }).compile(input);
    for (const levels of [1, 5, TREE_DEPTH]) expect(validate(payload(chain(levels), sections(4)))).toBe(true);
    expect(validate(payload({ label: "x", children: [{ label: 1, children: [] }] }))).toBe(false);
  });

  it("writes an embedded contract's recursive types in $defs too, named apart from the contract's own of the same name", () => {
    const mcp = JSON.parse(readFileSync(join(EXPECTED, "demo.forest/v1_0/llm/mcp.json"), "utf8")) as { tool: { inputSchema: Record<string, unknown> } };
    const input = mcp.tool.inputSchema;
    expect(Object.keys(input["$defs"] as object).sort()).toEqual(["TreeNode", "demo.tree.v1_0.Paragraph", "demo.tree.v1_0.Section", "demo.tree.v1_0.TreeNode"]);
    const validate = new Ajv2020({ strict: false }).compile(input);
    const forest = (planted: Record<string, unknown>, own: Record<string, unknown>) => ({ contract: "demo.forest", version: "1.0", planted: payload(planted, sections(3)), own });
    const own = { name: "a", kids: [{ name: "b", kids: [] }] };
    expect(validate(forest(chain(TREE_DEPTH), own))).toBe(true);
    // Each tree is checked as its own type: demo.tree's labels (strings of at most 40), this contract's names (at most 10).
    expect(validate(forest({ label: "x", children: [{ label: 1, children: [] }] }, own))).toBe(false);
    expect(validate(forest(chain(2), { name: "a", kids: [{ name: "b".repeat(11), kids: [] }] }))).toBe(false);
    expect(validate(forest(chain(2), { name: "a", kids: [{ label: "b", children: [] }] }))).toBe(false);
  });
});
