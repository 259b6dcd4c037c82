// OpenAI's nesting limit (10 levels of objects) judged on what the projection writes: random field
// types of objects, maps, lists and tuples are projected, the object levels of the projected schema
// are counted by walking it, and `llm-limit-exceeded` must be reported exactly when they pass 10.
// A map is written as entries (an object each) and a tuple as an object keyed by position.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { compile } from "../../src/pipeline.js";
import { projectVersion } from "../../src/project/project.js";

const scratch = mkdtempSync(join(tmpdir(), "treaty-nesting-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A field type as inline YAML (flow style). */
type Shape = { kind: "int" } | { kind: "object" | "list" | "map"; of: Shape } | { kind: "tuple"; items: Shape[] };

const yamlOf = (shape: Shape): string => {
  switch (shape.kind) {
    case "int":
      return "int";
    case "object":
      return `{ type: object, fields: { x: ${yamlOf(shape.of)} } }`;
    case "list":
      return `{ type: list, of: ${yamlOf(shape.of)}, maxItems: 3 }`;
    case "map":
      return `{ type: map, of: ${yamlOf(shape.of)}, keys: { sensitivity: none } }`;
    case "tuple":
      return `{ type: tuple, items: [${shape.items.map(yamlOf).join(", ")}] }`;
  }
};

/** A chain of 4 to 14 containers around an int or an object, near the limit either side. */
const shape: fc.Arbitrary<Shape> = fc
  .tuple(fc.array(fc.constantFrom("object" as const, "list" as const, "map" as const, "tuple" as const), { minLength: 4, maxLength: 14 }), fc.boolean())
  .map(([kinds, objectLeaf]) =>
    kinds.reduceRight<Shape>(
      (inner, kind) => (kind === "tuple" ? { kind, items: [inner, { kind: "int" }] } : { kind, of: inner }),
      objectLeaf ? { kind: "object", of: { kind: "int" } } : { kind: "int" },
    ),
  );

/** The most objects (`type: "object"`) nested in one another anywhere in `node`. */
const objectLevels = (node: unknown): number => {
  if (Array.isArray(node)) return Math.max(0, ...node.map(objectLevels));
  if (typeof node !== "object" || node === null) return 0;
  const own = (node as Record<string, unknown>)["type"] === "object" ? 1 : 0;
  return own + Math.max(0, ...Object.values(node).map(objectLevels));
};

let n = 0;
const openai = (field: Shape) => {
  const root = join(scratch, String(n++));
  mkdirSync(join(root, "idl"), { recursive: true });
  writeFileSync(join(root, "idl", "demo.nest.yaml"), `contract: demo.nest\nowner: t\nllm: { providers: [openai] }\nversions:\n  "1.0":\n    fields:\n      f: ${yamlOf(field)}\n`);
  const compiled = compile({ root, idlDir: join(root, "idl") });
  const contract = compiled.value!.contracts[0]!;
  const levels = objectLevels(projectVersion(compiled.value!, contract, contract.versions[0]!, "openai").value);
  return { levels, reported: compiled.diagnostics.some((d) => d.code === "llm-limit-exceeded") };
};

const nested = (kind: "object" | "list" | "map", times: number, leaf: Shape): Shape => (times === 0 ? leaf : { kind, of: nested(kind, times - 1, leaf) });

describe("OpenAI's object nesting limit", () => {
  it("counts a map's entries and a tuple's positions as the objects they are written as", () => {
    // 10 maps of int: the root and 10 entry objects, 11 levels.
    expect(openai(nested("map", 10, { kind: "int" }))).toEqual({ levels: 11, reported: true });
    // 5 maps ending in an object: the root, 5 entries, the object, 7 levels.
    expect(openai(nested("map", 5, { kind: "object", of: { kind: "int" } }))).toEqual({ levels: 7, reported: false });
    expect(openai(nested("map", 9, { kind: "int" }))).toEqual({ levels: 10, reported: false });
    const tuples = (times: number): Shape => (times === 0 ? { kind: "int" } : { kind: "tuple", items: [tuples(times - 1)] });
    expect(openai(tuples(10))).toEqual({ levels: 11, reported: true });
  });

  it("reports exactly the projections whose schema nests more than 10 objects", () => {
    fc.assert(
      fc.property(shape, (field) => {
        const { levels, reported } = openai(field);
        expect(reported).toBe(levels > 10);
      }),
      { numRuns: 150 },
    );
  });
});
