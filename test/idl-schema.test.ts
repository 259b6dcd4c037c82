import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv/dist/ajv.js";
import ajvFormats from "ajv-formats";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const idlDir = join(root, "idl");

const yamlFilesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFilesUnder(path);
    // Agent files have their own schema (test/agent-schema.test.ts).
    return entry.name.endsWith(".yaml") && !entry.name.endsWith(".agent.yaml") ? [path] : [];
  });

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ajvFormats.default;

// strictRequired is off: the type-dependent `required` lists in if/then branches name keys
// declared on the enclosing mapping, which Ajv's strict check does not look through.
const createValidator = () => {
  const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(idlDir, "idl.schema.json"), "utf8")));
};

const validate = createValidator();

const minimal = (): Record<string, unknown> => ({
  contract: "demo.thing",
  versions: { "1.0": { fields: { id: { type: "string", maxLength: 10 } } } },
});

describe("idl.schema.json", () => {
  const files = yamlFilesUnder(idlDir);

  it("finds the contracts", () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it.each(files.map((file) => [relative(root, file), file]))("accepts %s", (_name, file) => {
    const ok = validate(parse(readFileSync(file, "utf8")));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it("accepts a minimal contract", () => {
    expect(validate(minimal())).toBe(true);
  });

  it("accepts every construct of the syntax", () => {
    const doc = parse(`
contract: demo.everything
kind: event
unknown_fields: strip
compatibility: full
envelope: none
canonical: "1.0"
enums:
  Color: { fallback: OTHER, values: { RED: Red., OTHER: Anything else. } }
types:
  Circle: { fields: { r: { type: number, exclusiveMin: 0 } } }
  Meta: { unknown_fields: keep, additional: { type: string, maxLength: 9 }, fields: { trace: string } }
  Loose: { unknown_fields: strip, fields: { n: int } }
versions:
  "1.0":
    status: draft
    fields:
      id: { type: string, format: uuid, role: idempotency_key }
      at: { type: timestamp, optional: true, nullable: not yet scheduled }
      until: { type: timestamp, optional: true }
      n: { type: int, min: 0, max: 9, multipleOf: 3, optional: true, default: 0 }
      tags: { type: list, of: { type: string, maxLength: 20 }, maxItems: 5, unique: true }
      attrs: { type: map, of: string, sensitivity: pii }
      shape:
        type: union
        tag: kind
        variants: { circle: Circle, square: { fields: { side: number } } }
      marker: { type: const, value: 1 }
      either: { type: union, variants: [string, { type: int, min: 0 }, Circle] }
      cleared: { type: const, value: null }
      "$schema": { type: string, format: uri-template }
      big: { type: string, format: int64 }
      headers: { type: map, of: string, keys: { pattern: "^[a-z]+$" } }
      color: Color
      peer: { type: other.contract@2, deprecated: { since: "1.0", use: id } }
      doc: ref<artifact>
      box: { type: { type: object, fields: { w: int } } }
      args: { type: object, unknown_fields: keep, fields: { q: string } }
      typed: { type: object, additional: int, fields: {} }
    rules:
      - before: [at, until]
      - exclusive: [at, n]
      - requires: { if: at, then: [until, n] }
        description: Scheduled items need an end and a count.
  "1.1":
    from: "1.0"
    changes:
      - add: usage.cost_usd
        type: number
        optional: true
      - remove: box
        default: { w: 1 }
      - rename: { from: id, to: key }
      - require: n
        default: 0
      - relax: tags
      - retype: n
        type: number
        min: 0
      - constrain: tags
        maxItems: 10
      - enum: Color
        add: { BLUE: Blue. }
        remove: [RED]
        map: { RED: OTHER }
      - custom: Split name into first_name and last_name.
        description: Names are stored split.
examples:
  - { version: "1.0", valid: { id: x }, description: ok }
  - { version: "1.0", invalid: {}, expect: { path: "", code: required } }
`);
    validate(doc);
    expect(validate.errors ?? []).toEqual([]);
  });

  const withField = (field: unknown) => (doc: Record<string, unknown>) =>
    (doc["versions"] = { "1.0": { fields: { id: field } } });
  const fieldPath = "/versions/1.0/fields/id";

  // [what, mutation, instancePath and keyword of an error the schema must report]
  const bad: [string, (doc: Record<string, unknown>) => void, string, string][] = [
    ["an unknown top-level key", (doc) => (doc["owners"] = "x"), "", "additionalProperties"],
    [
      "an enum value without meaning",
      (doc) => (doc["enums"] = { Status: { values: { OK: null } } }),
      "/enums/Status/values/OK",
      "type",
    ],
    [
      "an enum value with a blank meaning",
      (doc) => (doc["enums"] = { Status: { values: { OK: " " } } }),
      "/enums/Status/values/OK",
      "pattern",
    ],
    [
      "a version key that is not MAJOR.MINOR",
      (doc) => (doc["versions"] = { "1": { fields: {} } }),
      "/versions",
      "propertyNames",
    ],
    [
      "an unknown type keyword in a field mapping",
      withField({ type: "string", maxLen: 10 }),
      fieldPath,
      "additionalProperties",
    ],
    [
      "a constraint of another type beside `type`",
      withField({ type: "string", min: 1 }),
      fieldPath,
      "propertyNames",
    ],
    ["an unknown type expression", withField("strng"), fieldPath, "pattern"],
    ["a list without `of`", withField({ type: "list" }), fieldPath, "required"],
    ["a union with `tag` and a list of variants", withField({ type: "union", tag: "kind", variants: ["string", "int"] }), fieldPath, "anyOf"],
    ["a union whose variants are a mapping without `tag`", withField({ type: "union", variants: { a: { fields: {} } } }), fieldPath, "anyOf"],
    ["an untagged union of one variant", withField({ type: "union", variants: ["string"] }), `${fieldPath}/variants`, "minItems"],
    ["a shorthand type that needs constraints", withField("list"), fieldPath, "enum"],
    ["a default on a required field", withField({ type: "int", default: 1 }), fieldPath, "required"],
    [
      "a version with both fields and changes",
      (doc) => (doc["versions"] = { "1.0": { fields: {}, changes: [{ relax: "id" }] } }),
      "/versions/1.0",
      "oneOf",
    ],
    [
      "a change without an operation",
      (doc) => (doc["versions"] = { "1.0": { fields: {} }, "1.1": { changes: [{ description: "x" }] } }),
      "/versions/1.1/changes/0",
      "not",
    ],
    [
      "an invalid example without expect",
      (doc) => (doc["examples"] = [{ version: "1.0", invalid: {} }]),
      "/examples/0",
      "oneOf",
    ],
    [
      "an unknown issue code",
      (doc) => (doc["examples"] = [{ version: "1.0", invalid: {}, expect: { path: "/id", code: "bad" } }]),
      "/examples/0/expect/code",
      "enum",
    ],
    ["an unknown unknown_fields policy", (doc) => (doc["unknown_fields"] = "open"), "/unknown_fields", "enum"],
    ["unknown_fields on a type other than object", withField({ type: "list", of: "string", unknown_fields: "keep" }), fieldPath, "propertyNames"],
    [
      "additional beside unknown_fields: reject",
      withField({ type: "object", fields: {}, unknown_fields: "reject", additional: "int" }),
      `${fieldPath}/unknown_fields`,
      "const",
    ],
    ["an unknown compatibility level", (doc) => (doc["compatibility"] = "transitive"), "/compatibility", "enum"],
    ["a missing contract name", (doc) => delete doc["contract"], "", "required"],
  ];

  it("accepts json and tuple fields, and rejects their keys elsewhere or a tuple without items", () => {
    const field = (id: unknown) => ({ ...minimal(), versions: { "1.0": { fields: { id } } } });
    expect(validate(field({ type: "json", maxDepth: 4, maxBytes: 1024 }))).toBe(true);
    expect(validate(field("json"))).toBe(true);
    expect(validate(field({ type: "tuple", items: ["string", { type: "int", min: 0 }] }))).toBe(true);
    expect(validate(field({ type: "tuple" }))).toBe(false);
    expect(validate(field({ type: "tuple", items: [] }))).toBe(false);
    expect(validate(field({ type: "json", maxDepth: 0 }))).toBe(false);
    expect(validate(field({ type: "string", maxDepth: 2 }))).toBe(false);
    expect(validate(field({ type: "json", items: ["string"] }))).toBe(false);
  });

  it.each(bad)("rejects %s", (_name, mutate, instancePath, keyword) => {
    const doc = minimal();
    mutate(doc);
    expect(validate(doc)).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath, keyword }));
  });
});

describe("idl.schema.json and the compiler", () => {
  it("names every lint rule a `lint:` key may turn off, and no other", async () => {
    const { LINT_RULES } = await import("../src/diagnostics/codes.js");
    const schema = JSON.parse(readFileSync(join(idlDir, "idl.schema.json"), "utf8")) as { $defs?: Record<string, unknown>; definitions?: Record<string, unknown> };
    const defs = (schema.$defs ?? schema.definitions)! as Record<string, { propertyNames: { enum: string[] } }>;
    expect([...defs["lintIgnores"]!.propertyNames.enum].sort()).toEqual([...LINT_RULES].sort());
  });
});
