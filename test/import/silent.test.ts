// `treaty import` where it was wrong without a word: each source here imported "exactly" while its
// contract accepted more than the source (or less). Now each contract either agrees with Ajv on
// the source, on values generated from the contract, mutated around it, and the values the tester
// found (exact), or accepts every value Ajv accepts and says what it left out (a warning).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv, type AnySchema } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/diagnostics/diagnostic.js";
import { importSchema } from "../../src/import/import.js";
import { generate } from "../../src/pipeline.js";
import { arbitraryFor, mutated } from "../support/arbitrary.js";
import { holdsProtoKey } from "../support/imported-source.js";
import { tempProject } from "../support/temp-project.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;

interface Outcome {
  readonly exact: boolean;
  readonly text: string;
  /** The diagnostics, formatted. */
  readonly diagnostics: readonly string[];
}

/**
 * Imports `source` as contract `x.s`, generates it, and compares its validator with Ajv on the
 * source: equal verdicts when it imported without a diagnostic, else Ajv's accepted values
 * accepted. `probes` are tried besides the generated and mutated values.
 */
const compared = async (name: string, source: Record<string, unknown>, probes: readonly unknown[], options: { draft07?: boolean; objectsOnly?: boolean } = {}): Promise<Outcome> => {
  const dir = tempProject(`import-silent-${name}`, { "package.json": `{ "type": "module", "treaty": { "tests": false } }\n` });
  const file = join(dir, "s.json");
  writeFileSync(file, `${JSON.stringify(source, null, 2)}\n`);
  const imported = importSchema({ root: dir, file, text: readFileSync(file, "utf8"), outDir: join(dir, "idl"), contract: "x.s" });
  expect(imported.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic)).toEqual([]);
  const [f] = imported.value;
  mkdirSync(join(dir, "idl"), { recursive: true });
  writeFileSync(f!.path, f!.text);
  const generated = await generate({ root: dir, idlDir: join(dir, "idl"), outDir: join(dir, "generated"), check: false, tests: false });
  expect(generated.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const out = join(dir, "generated", f!.contract, "v1_0");
  const { check } = (await import(pathToFileURL(join(out, "validator.ts")).href)) as { check: (v: unknown) => boolean };
  const ajv = options.draft07 ? new Ajv({ strict: false, logger: false }) : (new Ajv2020({ strict: false, logger: false }) as unknown as Ajv);
  addFormats(ajv);
  // Ajv holds no draft-04 meta-schema and refuses its `id` (an identifier, no constraint): it reads
  // the source as draft-07 without them, as the import does (this source has no property named id).
  const { $schema, ...schema } = source;
  const draft04 = JSON.parse(JSON.stringify(schema), (key, value: unknown) => (key === "id" ? undefined : value)) as AnySchema;
  ajv.addSchema((options.draft07 ? draft04 : source) as AnySchema, "source");
  const referee = ajv.compile({ $ref: `source${f!.pointer}` });
  const verdict = (value: unknown) => {
    const expected = referee(value);
    if (f!.exact) expect({ value, treaty: check(value) }).toEqual({ value, treaty: expected });
    else if (expected) expect({ value, treaty: check(value) }).toEqual({ value, treaty: true });
  };
  probes.forEach(verdict);
  const valid = arbitraryFor(JSON.parse(readFileSync(join(out, "schema.json"), "utf8")) as Record<string, unknown>);
  fc.assert(
    fc.property(fc.oneof(valid, mutated(valid)), (value) => {
      fc.pre(!holdsProtoKey(value));
      // A payload is an object: a root's other values are rejected, as its warning says.
      fc.pre(!options.objectsOnly || (typeof value === "object" && value !== null && !Array.isArray(value)));
      verdict(value);
    }),
    { numRuns: 150 },
  );
  return { exact: f!.exact, text: f!.text, diagnostics: imported.diagnostics.map(formatDiagnostic) };
};

/** `{ a: value }` for each value: probes of one property. */
const at = (key: string, values: readonly unknown[]) => values.map((value) => ({ [key]: value }));

const OTHERS: readonly unknown[] = ["", "abc", "b", 3, 2.5, true, null, [], ["x"], {}, { k: 1 }];

describe("keywords beside a oneOf or anyOf hold for each branch", () => {
  it("an object's properties and required beside a tagged oneOf, a string's minLength beside an anyOf of types: exact", async () => {
    const outcome = await compared(
      "beside",
      {
        type: "object",
        required: ["shape", "len"],
        properties: {
          shape: {
            type: "object",
            required: ["id", "kind"],
            properties: { id: { type: "string" } },
            oneOf: [
              { required: ["kind"], properties: { kind: { const: "circle" }, r: { type: "number" } } },
              { required: ["kind"], properties: { kind: { const: "square" }, side: { type: "number" } } },
            ],
          },
          len: { minLength: 3, anyOf: [{ type: "string" }, { type: "integer" }] },
        },
      },
      [
        { shape: { kind: "circle", r: 1 }, len: "abc" },
        { shape: { id: "a", kind: "circle", r: 1 }, len: "ab" },
        { shape: { id: "a", kind: "circle", r: 1 }, len: 2 },
        { shape: { id: 3, kind: "square", side: 1 }, len: "abcd" },
      ],
    );
    expect(outcome.diagnostics).toEqual([]);
    expect(outcome.exact).toBe(true);
  }, 60_000);

  it("keywords it cannot merge into a branch are reported, never dropped silently", async () => {
    const outcome = await compared(
      "beside-unmerged",
      {
        type: "object",
        properties: {
          v: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false, anyOf: [{ properties: { b: { type: "integer" } } }, { required: ["a"] }] },
        },
      },
      at("v", [{ a: "x" }, { b: 1 }, { a: "x", b: 1 }, {}]),
    );
    expect(outcome.diagnostics.join("\n")).toMatch(/additionalProperties beside an anyOf/);
  }, 60_000);
});

describe("required keys of maps and bare objects", () => {
  it("are fields typed as the other keys: exact", async () => {
    const outcome = await compared(
      "required",
      {
        type: "object",
        properties: {
          bare: { type: "object", required: ["a"] },
          map: { type: "object", additionalProperties: { type: "string" }, required: ["a"] },
        },
      },
      [...at("bare", [{}, { a: null }, { b: 1 }]), ...at("map", [{}, { a: 1 }, { a: "x", b: "y" }, { b: "y" }])],
    );
    expect(outcome.diagnostics).toEqual([]);
  }, 60_000);

  it("dependentRequired on a map is reported", async () => {
    const outcome = await compared(
      "dependent",
      { type: "object", properties: { m: { type: "object", additionalProperties: { type: "string" }, dependentRequired: { a: ["b"] } } } },
      at("m", [{ a: "x" }, { a: "x", b: "y" }]),
    );
    expect(outcome.diagnostics.join("\n")).toContain("dependentRequired at #/properties/m/dependentRequired");
  }, 60_000);
});

describe("const and enum beside the keywords they must also pass", () => {
  it("a value the type or bounds reject is no value of the enum: exact", async () => {
    const outcome = await compared(
      "enum-type",
      {
        type: "object",
        properties: {
          mixed: { type: "string", enum: ["a", 1] },
          nulled: { type: "string", enum: ["a", "b", null] },
          short: { type: "string", maxLength: 1, enum: ["a", "bb"] },
          small: { type: "integer", maximum: 5, enum: [1, 9, 2.5] },
        },
      },
      [...at("mixed", [1, "a"]), ...at("nulled", [null, "a"]), ...at("short", ["bb", "a"]), ...at("small", [9, 2.5, 1])],
    );
    expect(outcome.diagnostics).toEqual([]);
  }, 60_000);
});

describe("schemas that accept nothing", () => {
  it("allOf: [false] is reported; a false branch of a oneOf or anyOf changes nothing: exact", async () => {
    const reported = await compared("allof-false", { type: "object", properties: { never: { type: "object", allOf: [false] } } }, at("never", [{}, { a: 1 }]));
    expect(reported.diagnostics.join("\n")).toContain("a part of an allOf that accepts nothing");
    const exact = await compared(
      "branch-false",
      { type: "object", properties: { u: { anyOf: [false, { type: "string" }, { type: "integer" }] }, e: { type: "array", items: false } } },
      [...at("u", ["x", 1, null]), ...at("e", [[], [1]])],
    );
    expect(exact.diagnostics).toEqual([]);
  }, 60_000);
});

describe("null in two branches of a oneOf", () => {
  it("matches both, so the oneOf rejects it: the field is not nullable", async () => {
    const outcome = await compared(
      "null-twice",
      {
        type: "object",
        properties: {
          listed: { oneOf: [{ type: ["string", "null"] }, { type: "null" }] },
          three: { oneOf: [{ type: "null" }, { type: "string" }, { type: ["integer", "null"] }] },
          either: { anyOf: [{ type: ["string", "null"] }, { type: "null" }] },
        },
      },
      [...at("listed", [null, "a"]), ...at("three", [null, "a", 1]), ...at("either", [null, "a"])],
    );
    expect(outcome.diagnostics).toEqual([]);
  }, 60_000);
});

describe("a schema without type", () => {
  it("lets every value its keywords are not about through: a union of every type, each with its own keywords (exact)", async () => {
    const outcome = await compared(
      "untyped",
      {
        type: "object",
        properties: {
          pattern: { pattern: "^a" },
          length: { minLength: 2 },
          when: { format: "date-time" },
          props: { properties: { k: { type: "string" } }, required: ["k"] },
          items: { items: { type: "string" } },
          parts: { allOf: [{ properties: { k: { type: "string" } } }, { required: ["k"] }] },
        },
      },
      ["pattern", "length", "when", "props", "items", "parts"].flatMap((key) => at(key, OTHERS)),
    );
    expect(outcome.diagnostics).toEqual([]);
  }, 60_000);

  it("`not` without type is reported as not, with no 'type undefined'", async () => {
    const outcome = await compared("not", { type: "object", properties: { n: { not: {} } } }, at("n", OTHERS));
    expect(outcome.diagnostics.join("\n")).toContain("not at #/properties/n/not");
    expect(outcome.diagnostics.join("\n")).not.toContain("undefined");
  }, 60_000);

  it("a root without type: object says the contract rejects values that are no object", async () => {
    const outcome = await compared("root", { properties: { a: { type: "string" } } }, [{ a: 1 }, { a: "x" }], { objectsOnly: true });
    expect(outcome.diagnostics.join("\n")).toContain("a payload that may be a string, number, boolean, array or null");
  }, 60_000);
});

describe("a format of numbers on a string", () => {
  it("int64 on a string (which any string passes) imports as a plain string, with a warning", async () => {
    const outcome = await compared("int64", { type: "object", properties: { id: { type: "string", format: "int64" } } }, at("id", ["12", "twelve", 12]));
    expect(outcome.text).not.toContain("int64");
    expect(outcome.diagnostics.join("\n")).toContain(`format "int64" on a string`);
  }, 60_000);
});

describe("roots", () => {
  it("a root that is only a $ref is the definition it names; draft-04's id is no constraint", async () => {
    const outcome = await compared(
      "root-ref",
      {
        $schema: "http://json-schema.org/draft-04/schema#",
        id: "http://example.com/foo.json",
        $ref: "#/definitions/Foo",
        definitions: { Foo: { id: "#foo", type: "object", required: ["a"], properties: { a: { type: "integer", minimum: 0 } }, additionalProperties: false } },
      },
      [{ a: 1 }, { a: -1 }, {}, { a: 1, b: 2 }],
      { draft07: true },
    );
    expect(outcome.diagnostics).toEqual([]);
    expect(outcome.text).toContain("#/definitions/Foo");
  }, 60_000);

  it("a source nested past 256 levels, in brackets or in block style, is limit-exceeded, not a parser's stack overflow", () => {
    const dir = tempProject("import-silent-deep", { "package.json": `{ "treaty": {} }\n` });
    const imported = (file: string, text: string): string[] => importSchema({ root: dir, file: join(dir, file), text, outDir: join(dir, "idl"), contract: "x.d" }).diagnostics.map(formatDiagnostic);
    expect(imported("d.json", `{"type": "object", "examples": ${"[".repeat(2000)}${"]".repeat(2000)}}\n`)).toEqual(["d.json:1:287 - error limit-exceeded: the nesting of this JSON is more than 256 levels; treaty allows at most 256 levels"]);
    // No bracket in it: the check on brackets alone let it through to the parser.
    const block = Array.from({ length: 2000 }, (_, i) => `${" ".repeat(i + 1)}k${i}:`).join("\n");
    expect(imported("d.yaml", `type: object\nexamples:\n${block} x\n`)).toEqual(["d.yaml:258:257 - error limit-exceeded: the nesting of this YAML is more than 256 levels; treaty allows at most 256 levels"]);
  });
});

describe("a list of types in a part of an allOf", () => {
  it("is the types all parts allow, with the other parts' keywords: exact; types no value has are reported", async () => {
    // Was any JSON value (every type, nullable), with no diagnostic.
    const outcome = await compared(
      "allof-type-list",
      {
        type: "object",
        required: ["a"],
        properties: {
          a: { allOf: [{ type: ["integer", "string"] }] },
          b: { allOf: [{ type: ["integer", "string"] }, { minimum: 2 }] },
          c: { allOf: [{ type: ["string", "integer"] }, { type: ["integer", "boolean"] }] },
          d: { allOf: [{ type: ["string", "null"] }, { type: ["integer", "null"] }] },
        },
      },
      [
        ...at("a", [1, "x", true, null, 1.5, [], {}]),
        ...at("b", [1, 2, "x", true, null]),
        ...at("c", [1, "x", true, null, 1.5]),
        ...at("d", [null, 1, "x", false]),
      ],
    );
    expect(outcome.diagnostics).toEqual([]);
    const none = await compared("allof-type-none", { type: "object", properties: { e: { allOf: [{ type: ["string", "null"] }, { type: ["integer", "boolean"] }] } } }, at("e", [null, 1, "x", true]));
    expect(none.diagnostics.join("\n")).toContain("an allOf whose parts are not all object schemas");
  }, 60_000);
});
