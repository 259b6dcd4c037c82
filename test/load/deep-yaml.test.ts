// YAML nested past 256 levels (in flow or block style, an example's value included) is a limit,
// found on the syntax tree before yaml's recursive composer reads it: that composer ran out of
// stack at about 780 levels in `treaty check`, a `yaml-syntax` error whose detail was JavaScript's
// "Maximum call stack size exceeded", then one said as a limit of "a few thousand levels".
import { expect, it } from "vitest";
import fc from "fast-check";
import { Document, Parser, visit } from "yaml";
import { parseSource } from "../../src/load/load.js";
import { MAX_BLOCK_ESTIMATE, blockNesting, nestingPastLimit } from "../../src/load/nesting-past-limit.js";
import { compile } from "../../src/pipeline.js";
import { tempProject } from "../support/temp-project.js";

// The contract's mapping, `examples` and the example: three levels above `valid`'s value.
const head = 'contract: d.deep\nowner: tests\nversions:\n  "1.0":\n    fields:\n      a: { type: string, maxLength: 3 }\nexamples:\n  - version: "1.0"\n    valid: ';
const flow = (n: number): string => `${head}${"[".repeat(n)}${"]".repeat(n)}\n`;
const block = (n: number): string => `${head}\n${Array.from({ length: n }, (_, i) => `${" ".repeat(6 + i)}k${i}:`).join("\n")} x\n`;
const mixed = (n: number): string => `${head}\n${Array.from({ length: n / 2 }, (_, i) => `${" ".repeat(6 + 2 * i)}- k${i}:`).join("\n")} x\n`;

it.each([
  ["flow", flow(20_000), "9:265"],
  ["block", block(5_000), "263:260"],
  ["block, lists of mappings", mixed(5_000), "136:261"],
])("%s style: limit-exceeded at the collection past 256 levels, one line, no stack", (_, deep, at) => {
  const root = tempProject("deep-yaml", { "idl/d.deep.yaml": deep });
  const errors = compile({ root, idlDir: `${root}/idl` }).diagnostics.filter((d) => d.severity === "error");
  expect(errors.map((d) => `${d.loc?.file}:${d.loc?.line}:${d.loc?.col} ${d.code}: ${d.message}`)).toEqual([
    `idl/d.deep.yaml:${at} limit-exceeded: the nesting of this YAML is more than 256 levels; treaty allows at most 256 levels`,
  ]);
});

it("256 levels are read, 257 are not, in either style", () => {
  const deep = (text: string): string[] => parseSource("d.yaml", text).diagnostics.filter((d) => d.code === "limit-exceeded").map((d) => `${d.loc?.line}:${d.loc?.col}`);
  expect(deep(flow(253))).toEqual([]);
  expect(deep(flow(254))).toEqual(["9:265"]);
  expect(deep(block(253))).toEqual([]);
  expect(deep(block(254))).toEqual(["263:260"]);
  // Keys count as values do: a flow mapping as a key (`? [...]`) nests what is in it.
  expect(deep(`? ${"[".repeat(256)}${"]".repeat(256)}\n: x\n`)).toEqual(["1:258"]);
});

// yaml's own parser (before the syntax tree exists) runs out of stack closing block collections a
// few thousand deep at once (found by a fuzzing helper: check, generate and import exited 70), at a
// depth that moves with how much of the stack the caller used and whether its code was optimised:
// such a text is judged by its indentation instead, never parsed, and said at the same place.
it.each([
  ["a sequence of 3,000 `- ` with an item after it", `${"- ".repeat(3000)}a\n- b\n`, "1:513"],
  ["a key 2,300 mappings deep with a key after it", `contract: a.b\nowner: x\nother:\n${Array.from({ length: 2300 }, (_, i) => `${"  ".repeat(i + 1)}k:`).join("\n")}\nversions: {}\n`, "259:513"],
  ["1,400 lists of mappings with a key after them", `${Array.from({ length: 1400 }, (_, i) => `${"  ".repeat(i)}- k:`).join("\n")}\nv: 1\n`, "129:257"],
])("%s: limit-exceeded, at the collection past 256 levels, no stack", (_, text, at) => {
  const root = tempProject("deep-yaml-parser", { "idl/d.deep.yaml": text });
  const errors = compile({ root, idlDir: `${root}/idl` }).diagnostics.filter((d) => d.severity === "error");
  expect(errors.map((d) => `${d.loc?.line}:${d.loc?.col} ${d.code}`)).toEqual([`${at} limit-exceeded`]);
  expect(blockNesting(text).depth).toBeGreaterThan(MAX_BLOCK_ESTIMATE);
});

// The estimate agrees with the syntax tree where both are made: the same text, below the estimate's
// limit or above it, is said at the same place.
const example = 'contract: d.deep\nowner: tests\nversions: {}\nexamples:\n  - version: "1.0"\n    valid:\n';
const shapes: [string, (n: number) => string][] = [
  ["`- ` on one line", (n) => `${"- ".repeat(n)}a\n- b\n`],
  ["mappings", (n) => `${example}${Array.from({ length: n }, (_, i) => `${" ".repeat(6 + i)}k${i}:`).join("\n")} x\n`],
  ["lists of mappings", (n) => `${example}${Array.from({ length: n }, (_, i) => `${" ".repeat(6 + 2 * i)}- k${i}:`).join("\n")} x\n`],
  ["mappings whose values are lists at their column", (n) => `${Array.from({ length: n }, (_, i) => `${"  ".repeat(i)}k${i}:\n${"  ".repeat(i)}- "a"\n${"  ".repeat(i)}-`).join("\n")} z\n`],
  ["lists of lists", (n) => `${Array.from({ length: n }, (_, i) => `${"  ".repeat(i)}- - a\n${"  ".repeat(i)}  -`).join("\n")} z\n`],
  ["lists of mappings each with a block scalar before the key that nests", (n) => `${Array.from({ length: n }, (_, i) => `${" ".repeat(4 * i)}- t: |\n${" ".repeat(4 * i + 4)}text\n${" ".repeat(4 * i + 2)}k:`).join("\n")} z\n`],
  ["a block scalar's indented lines", (n) => `d: |\n${Array.from({ length: n }, (_, i) => `${" ".repeat(i + 2)}- k${i}:`).join("\n")}\ne: 1\n`],
];
it.each(shapes)("%s: the estimate and the syntax tree find the same place past 256 levels", (_, make) => {
  for (const n of [200, 255, 256, 257, 300, 400]) {
    const text = make(n);
    const tree = [...new Parser().parse(text)].map(nestingPastLimit).find((at) => at !== undefined);
    expect({ n, at: blockNesting(text).past }).toEqual({ n, at: tree });
  }
});

// No valid text is judged too deep by the estimate: random values nested up to 250 levels, printed
// by yaml in block style (lists indented or not, any indent, multi-line strings as block scalars,
// long ones folded, keys that need quotes) and in flow style inside block, estimate at most
// `MAX_BLOCK_ESTIMATE`, so they are parsed and judged on the tree.
const nested = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 250 },
    fc.oneof(fc.string(), fc.constantFrom("a\nb\n  c", "key: value", "- x", "| y", "> z", "#c", "   ", "x ".repeat(60)), fc.integer(), fc.constant(null)),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a: b", "- c", "? d", "#", "k")), tie("value"), { maxKeys: 3 }),
  ),
}));
const chain = (depth: number, leaf: unknown, keys: boolean[]): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = keys[i % keys.length] ? { [`k${i}`]: value, s: i } : [i, value];
  return value;
};
it("valid texts nested up to 250 levels are never past the estimate's limit", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 248 }),
      nested.value,
      fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
      fc.record({ indent: fc.integer({ min: 1, max: 8 }), indentSeq: fc.boolean(), lineWidth: fc.integer({ min: 0, max: 80 }), flowLeaf: fc.boolean() }),
      (depth, leaf, keys, { indent, indentSeq, lineWidth, flowLeaf }) => {
        const doc = new Document(chain(depth, "LEAF", keys));
        // The leaf in flow style, where it is a collection: `[...]` and `{...}` inside block ones.
        visit(doc, { Scalar: (_, node) => (node.value === "LEAF" ? doc.createNode(leaf, { flow: flowLeaf }) : undefined) });
        const text = doc.toString({ indent, indentSeq, lineWidth });
        const tree = [...new Parser().parse(text)].map(nestingPastLimit).find((at) => at !== undefined);
        fc.pre(tree === undefined);
        expect(blockNesting(text).depth).toBeLessThanOrEqual(MAX_BLOCK_ESTIMATE);
      },
    ),
    { numRuns: 60 },
  );
});
