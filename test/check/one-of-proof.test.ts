// The untagged-union proof against Ajv: for unions drawn from a pool of variant types, whenever
// the compiler finds no overlap, every value Ajv accepts for a variant (generated from its emitted
// JSON Schema) is accepted by that variant alone (Ajv's `oneOf` agrees) and the selector picks
// exactly that variant. Known overlapping pairs are reported, each once, naming the pair.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toJsonSchema } from "../../src/emit/json-schema.js";
import type { OneOfType } from "../../src/ir/model.js";
import { distinguishVariants, selectVariant } from "../../src/ir/one-of-variants.js";
import { compile } from "../../src/pipeline.js";
import { arbitraryFor } from "../support/arbitrary.js";
import { tempProject } from "../support/temp-project.js";

const POOL = [
  "string",
  "int",
  "number",
  "bool",
  "{ type: const, value: a }",
  "{ type: const, value: 1 }",
  "{ type: const, value: 1.5 }",
  "{ type: const, value: true }",
  "Level",
  "{ type: list, of: int, maxItems: 3 }",
  "Text",
  "Image",
  "{ type: object, fields: { type: { type: const, value: a }, n: int } }",
  "{ type: object, fields: { url: string } }",
  "{ type: object, fields: { path: string, n: { type: int, optional: true } } }",
  "{ type: map, of: int }",
  '{ type: string, pattern: "^a[0-9]*$" }',
  '{ type: string, pattern: "^b" }',
  '{ type: string, pattern: "[0-9]$" }',
  "ref<s3>",
  '{ type: object, fields: { id: { type: string, pattern: "^u" } } }',
  '{ type: object, fields: { id: { type: string, pattern: "^o" } } }',
];

// The providers that write the contract's shape as it is: the proof judged here is the contract's
// (openai and anthropic write a map as a list of entries: a union of a map and a list is refused there).
const contractFor = (variants: readonly string[], policy: string): string => `contract: demo.u
owner: tests
unknown_fields: ${policy}
llm: { providers: [gemini, mcp] }
enums:
  Level: { values: { a: A., b: B. } }
types:
  Text: { fields: { type: { type: const, value: text }, text: { type: string, maxLength: 5 } } }
  Image: { fields: { type: { type: const, value: image }, url: string, size: { type: int, optional: true } } }
versions:
  "1.0":
    fields:
      v:
        type: union
        variants:
${variants.map((v) => `          - ${v}`).join("\n")}
`;

describe("the untagged-union proof", () => {
  it("is sound: a value of a variant it calls disjoint is of that variant only, and selected as it", () => {
    const root = tempProject("one-of-proof");
    const ajv = new Ajv2020({ strict: false });
    let proved = 0;
    let n = 0;
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...POOL), { minLength: 2, maxLength: 4 }), fc.constantFrom("reject", "strip"), (variants, policy) => {
        const dir = join(root, String(n++));
        const file = join(dir, "idl", "demo.u.yaml");
        tempWrite(file, contractFor(variants, policy));
        const compiled = compile({ root: dir, idlDir: join(dir, "idl") });
        const errors = compiled.diagnostics.filter((d) => d.severity === "error");
        const overlapping = errors.filter((d) => d.code === "union-overlap");
        expect(errors.length, errors.map((d) => d.message).join("\n")).toBe(overlapping.length);
        if (overlapping.length > 0) return;
        proved++;
        const project = compiled.value!;
        const contract = project.contracts[0]!;
        const version = contract.versions[0]!;
        const union = version.fields.find((f) => f.name === "v")!.type as OneOfType;
        const { selectors } = distinguishVariants(union, version, contract);
        const schema = toJsonSchema(project, contract, version) as Record<string, any>;
        const field = { ...schema["properties"]["v"], $defs: schema["$defs"] };
        const validate = ajv.compile(field);
        field.oneOf.forEach((variant: Record<string, unknown>, i: number) => {
          fc.assert(
            fc.property(arbitraryFor(field, variant), (value) => {
              expect(validate(value), JSON.stringify(value)).toBe(true);
              expect(selectVariant(selectors, value), JSON.stringify(value)).toBe(i);
            }),
            { numRuns: 30 },
          );
        });
      }),
      { numRuns: 60 },
    );
    expect(proved).toBeGreaterThan(5);
  });

  it("names the pairs that overlap", () => {
    const overlaps = (variants: readonly string[], policy = "reject") => {
      const dir = tempProject("one-of-overlap");
      tempWrite(join(dir, "idl", "demo.u.yaml"), contractFor(variants, policy));
      return compile({ root: dir, idlDir: join(dir, "idl") }).diagnostics.filter((d) => d.code === "union-overlap").map((d) => d.message.split(":")[0]);
    };
    expect(overlaps(["int", "number"])).toEqual(["variants 1 (int) and 2 (number) of this union overlap"]);
    expect(overlaps(["number", "{ type: const, value: 1 }"])).toHaveLength(1);
    expect(overlaps(["Level", "{ type: const, value: a }"])).toHaveLength(1);
    expect(overlaps(["{ type: map, of: int }", "Text"])).toHaveLength(1);
    // Told apart by a field the other cannot have only while unknown keys are rejected.
    expect(overlaps(["{ type: object, fields: { url: string } }", "{ type: object, fields: { path: string } }"])).toEqual([]);
    expect(overlaps(["{ type: object, fields: { url: string } }", "{ type: object, fields: { path: string } }"], "strip")).toHaveLength(1);
    expect(overlaps(["Text", "Image", "string", "{ type: list, of: int }"])).toEqual([]);
    // Strings told apart by patterns no string matches both of; where one does, it is named.
    expect(overlaps(['{ type: string, pattern: "^a" }', '{ type: string, pattern: "^b" }', "ref<s3>", "ref<https>"])).toEqual([]);
    const dir = tempProject("one-of-overlap");
    tempWrite(join(dir, "idl", "demo.u.yaml"), contractFor(['{ type: string, pattern: "^a" }', '{ type: string, pattern: "b$" }'], "reject"));
    const [overlap] = compile({ root: dir, idlDir: join(dir, "idl") }).diagnostics.filter((d) => d.code === "union-overlap");
    expect(overlap?.message).toContain('both accept "ab"');
    expect(overlaps(["string", '{ type: string, pattern: "^a" }'])).toHaveLength(1);
    expect(overlaps(['{ type: object, fields: { id: { type: string, pattern: "^u" } } }', '{ type: object, fields: { id: { type: string, pattern: "^o" } } }'], "strip")).toEqual([]);
  });
});

const tempWrite = (file: string, text: string): void => {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
};
