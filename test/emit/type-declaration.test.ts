// type-declaration.ts prints a named type's declaration without json-schema-to-typescript for the
// schemas most contracts are made of. Its referee is json-schema-to-typescript itself: wherever the
// direct printer does not decline, its text must be the library's, byte for byte (so types.ts, its
// goldens and the format cache are the same either way). Checked on every declaration of idl/ and of
// the fixtures that generate, and on random schemas of the subset and just outside it.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { createFileBuilder } from "../../src/emit/file-builder.js";
import type { JsonSchema } from "../../src/emit/json-schema.js";
import { declareType } from "../../src/emit/type-declaration.js";
import { compileWithLibrary, typeDeclarations } from "../../src/emit/types.js";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";
import { compile } from "../../src/pipeline.js";

/** `text` as treaty's formatter has prettier print it. */
const prettier = (text: string): Promise<string> => format(text, { ...PRETTIER_OPTIONS, parser: "babel-ts" });

const ROOT = join(import.meta.dirname, "../..");
const FIXTURES = join(ROOT, "test/fixtures");

/** Every declaration types.ts makes for the contracts under `root`/idl. */
const declarationsOf = (root: string): [string, JsonSchema][] => {
  const { value: project } = compile({ root, idlDir: join(root, "idl") });
  if (project === undefined) throw new Error(`${root} does not compile`);
  return project.contracts.flatMap((contract) =>
    contract.versions.flatMap((version) => typeDeclarations(project, contract, version, createFileBuilder("x/types.ts", contract.file))),
  );
};

const projects = [ROOT, ...readdirSync(FIXTURES).filter((name) => name.startsWith("good-")).map((name) => join(FIXTURES, name))];

describe("declareType", () => {
  it("prints every declaration of idl/ and the good fixtures as json-schema-to-typescript does, and lays it out as prettier does, where it prints one", async () => {
    let printed = 0;
    let laidOut = 0;
    let declined = 0;
    const seen = new Set<string>();
    for (const root of projects) {
      for (const [name, schema] of declarationsOf(root)) {
        const key = `${name}\0${JSON.stringify(schema)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const direct = declareType(name, schema);
        if (direct === undefined) {
          declined++;
          continue;
        }
        printed++;
        const library = await compileWithLibrary(name, schema);
        expect(direct.text, `${root}: ${name}`).toBe(library);
        if (direct.pretty === undefined) continue;
        laidOut++;
        expect(direct.pretty, `${root}: ${name}`).toBe(await prettier(library));
      }
    }
    // Most declarations are in the subset: a printer that declined everything would pass the comparison.
    expect(printed).toBeGreaterThanOrEqual(100);
    expect(printed).toBeGreaterThan(8 * declined);
    expect(laidOut).toBeGreaterThan(0.8 * printed);
  }, 120_000);

  it("declines what it does not print: an open object, pattern keys, a tuple, a list of types, an unknown keyword", () => {
    const declined: JsonSchema[] = [
      { title: "T", type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
      { title: "T", type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "string" } },
      { title: "T", type: "object", patternProperties: { "^a": { type: "string" } } },
      { title: "T", type: "object" },
      { title: "T", type: "array", items: [{ type: "string" }], additionalItems: false },
      { title: "T", type: "string", default: "x" },
      { title: "T", type: ["string", "null"] },
      { title: "T", anyOf: [{ type: "string" }, {}] },
      { title: "T", type: "object", properties: { hasOwnProperty: { type: "string" } } },
      { title: "T", type: "array", items: { type: "string" }, minItems: 2, maxItems: 1 },
    ];
    for (const schema of declined) expect(declareType("T", schema), JSON.stringify(schema)).toBeUndefined();
    // Named otherwise than its title: json-schema-to-typescript's name is not treaty's.
    expect(declareType("U", { title: "T", type: "string" })).toBeUndefined();
  });

  // Random schemas of the subset, and of keywords just outside it: the printer agrees or declines.
  const text = fc.oneof(fc.constantFrom("", "a", "x */ y", "two\nlines", "@tag here", "Ünïcode", "has @maxItems 3"), fc.string({ maxLength: 12 }));
  const key = fc.oneof(fc.constantFrom("a", "b_c", "$d", "1e", "with space", "é", "__proto__", "kebab-case"), fc.string({ maxLength: 6 }));
  const described = <T extends object>(schema: fc.Arbitrary<T>): fc.Arbitrary<T> =>
    fc.tuple(schema, fc.option(text, { nil: undefined })).map(([s, d]) => (d === undefined ? s : { ...s, description: d }));
  const { schema } = fc.letrec<{ schema: JsonSchema }>((tie) => ({
    schema: described(
      fc.oneof(
        { depthSize: "small" },
        fc.constantFrom<JsonSchema>({ type: "string", maxLength: 3 }, { type: "integer" }, { type: "number", minimum: 0 }, { type: "boolean" }, { type: "null" }, { tsType: "Other" }, { tsType: "(-1)" }),
        fc.constantFrom<JsonSchema>({ type: "string", default: "x" }, { type: ["string", "null"] }, { type: "object" }, { enum: [] }, { const: { a: 1 } }),
        fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null)).map((value): JsonSchema => ({ const: value })),
        fc.tuple(fc.uniqueArray(fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 4 }), fc.constantFrom(undefined, "string", "integer")).map(
          ([values, type]): JsonSchema => (type === undefined ? { enum: values } : { type, enum: values }),
        ),
        // Long enough to break a line, and with quotes and escapes prettier rewrites.
        fc.uniqueArray(fc.oneof(fc.string({ minLength: 4, maxLength: 14 }), fc.constantFrom("it's", 'say "hi"', "a\\b", "tab\t", "1e21")), { minLength: 6, maxLength: 14 }).map((values): JsonSchema => ({ enum: values })),
        fc.uniqueArray(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()), { minLength: 1, maxLength: 12 }).map((values): JsonSchema => ({ enum: values })),
        fc.tuple(tie("schema"), fc.option(fc.nat(5), { nil: undefined }), fc.option(fc.nat(5), { nil: undefined })).map(([items, min, max]): JsonSchema => ({
          type: "array",
          items,
          ...(min === undefined ? {} : { minItems: min }),
          ...(max === undefined ? {} : { maxItems: Math.max(max, min ?? 0) }),
        })),
        fc.tuple(fc.constantFrom("anyOf", "oneOf"), fc.array(tie("schema"), { minLength: 1, maxLength: 3 })).map(([keyword, branches]): JsonSchema => ({ [keyword]: branches })),
        fc.tuple(tie("schema"), fc.constantFrom<JsonSchema>({ type: "null" }, { tsType: "A | B" }, { tsType: "unknown" }, { tsType: "Map<string, A>" })).map(([value, other]): JsonSchema => ({
          type: "object",
          additionalProperties: { anyOf: [value, other] },
        })),
        tie("schema").map((value): JsonSchema => ({ type: "object", additionalProperties: value, required: [] })),
        tie("schema").map((value): JsonSchema => ({ ...value, deprecated: true })),
        fc.tuple(fc.uniqueArray(fc.tuple(key, tie("schema"), fc.boolean()), { maxLength: 4, selector: ([k]) => k }), fc.boolean()).map(([properties, flag]): JsonSchema => {
          const required = properties.filter(([, , r]) => r).map(([k]) => k);
          return {
            type: "object",
            properties: Object.fromEntries(properties.map(([k, s, r]) => [k, flag && r && s["type"] !== "object" ? { ...s, required: true } : s])),
            required: flag ? required.filter((k) => properties.find(([p]) => p === k)![1]["type"] === "object") : required,
            additionalProperties: false,
          };
        }),
      ),
    ),
  }));

  it("agrees with json-schema-to-typescript (and its layout with prettier) on random schemas, or declines", async () => {
    let printed = 0;
    let laidOut = 0;
    await fc.assert(
      fc.asyncProperty(schema, async (generated) => {
        const named = { ...generated, title: "Random" };
        const direct = declareType("Random", named);
        if (direct === undefined) return;
        printed++;
        const library = await compileWithLibrary("Random", named);
        expect(direct.text).toBe(library);
        if (direct.pretty === undefined) return;
        laidOut++;
        expect(direct.pretty).toBe(await prettier(library));
      }),
      { numRuns: 300, seed: 20261206 },
    );
    expect(printed).toBeGreaterThanOrEqual(100);
    expect(laidOut).toBeGreaterThan(50);
  }, 120_000);
});
