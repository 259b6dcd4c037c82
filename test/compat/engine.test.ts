// The compatibility engine: each kind of difference, with both verdicts, on JSON Schemas and on
// contract versions compiled from YAML (declared changes, policies, locations).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bumpNeeded } from "../../src/compat/bump-needed.js";
import { compare, verdictOf } from "../../src/compat/compare.js";
import type { Difference } from "../../src/compat/difference.js";
import { shapeOfJsonSchema } from "../../src/compat/shape-of-json-schema.js";
import { shapeOfVersion } from "../../src/compat/shape-of-version.js";
import { versionDifferences } from "../../src/compat/version-differences.js";
import { toJsonSchema } from "../../src/emit/json-schema.js";
import type { Contract } from "../../src/ir/model.js";
import { compile } from "../../src/pipeline.js";

const shape = (schema: unknown) => {
  const imported = shapeOfJsonSchema(schema);
  if (!imported.ok) throw new Error(imported.reason);
  return imported.shape;
};

/** `kind path backward/forward` per difference: what a reviewer reads first. */
const brief = (differences: readonly Difference[]): string[] =>
  differences.map((d) => `${d.kind} ${d.path} ${d.backward}/${d.forward}`);

const schemaDiff = (older: unknown, newer: unknown): string[] => brief(compare(shape(older), shape(newer)));

/** Both directions at once: "compatible/breaking" means backward compatible, forward breaking. */
const verdicts = (differences: readonly Difference[]): string =>
  `${verdictOf(differences, "backward")}/${verdictOf(differences, "forward")}`;

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });

describe("JSON Schema: objects and openness", () => {
  it("an optional property added to a closed object breaks forward only", () => {
    const closed = { additionalProperties: false };
    expect(schemaDiff(obj({ a: { type: "string" } }, closed), obj({ a: { type: "string" }, b: { type: "string" } }, closed))).toEqual([
      "field-added /b compatible/breaking",
    ]);
  });

  it("open content: a property added to an open object breaks backward (old data may hold any value there)", () => {
    const [d] = compare(shape(obj({})), shape(obj({ b: { type: "string" } })));
    expect(`${d!.backward}/${d!.forward}`).toBe("breaking/compatible");
    expect(d!.reason).toMatch(/undeclared key/);
  });

  it("a required property added breaks backward; one removed breaks forward", () => {
    expect(schemaDiff(obj({}, { required: [] }), obj({ a: {} }, { required: ["a"] }))).toEqual(["field-added /a breaking/compatible"]);
    expect(schemaDiff(obj({ a: {} }, { required: ["a"] }), obj({}))).toEqual(["field-removed /a compatible/breaking"]);
  });

  it("optional ↔ required", () => {
    expect(schemaDiff(obj({ a: {} }), obj({ a: {} }, { required: ["a"] }))).toEqual(["field-required /a breaking/compatible"]);
    expect(schemaDiff(obj({ a: {} }, { required: ["a"] }), obj({ a: {} }))).toEqual(["field-optional /a compatible/breaking"]);
  });

  it("additionalProperties: closed → open, open → closed, schema widened", () => {
    expect(schemaDiff(obj({}, { additionalProperties: false }), obj({}))).toEqual(["unknown-fields-opened  compatible/breaking"]);
    expect(schemaDiff(obj({}), obj({}, { additionalProperties: false }))).toEqual(["unknown-fields-closed  breaking/compatible"]);
    expect(
      schemaDiff(obj({}, { additionalProperties: { type: "integer" } }), obj({}, { additionalProperties: { type: "number" } })),
    ).toEqual(["type-widened /* compatible/breaking"]);
  });

  it("changes inside nested objects carry the nested path", () => {
    expect(schemaDiff(obj({ a: obj({ b: { type: "string", maxLength: 5 } }) }), obj({ a: obj({ b: { type: "string", maxLength: 3 } }) }))).toEqual([
      "constraint-narrowed /a/b breaking/compatible",
    ]);
  });
});

describe("JSON Schema: types and constraints", () => {
  it.each([
    ["integer → number widens", { type: "integer" }, { type: "number" }, "type-widened  compatible/breaking"],
    ["number → integer narrows", { type: "number" }, { type: "integer" }, "type-narrowed  breaking/compatible"],
    ["string → number changes", { type: "string" }, { type: "number" }, "type-changed  breaking/breaking"],
    ["minLength lowered", { type: "string", minLength: 5 }, { type: "string", minLength: 3 }, "constraint-widened  compatible/breaking"],
    ["maxLength lowered", { type: "string", maxLength: 5 }, { type: "string", maxLength: 3 }, "constraint-narrowed  breaking/compatible"],
    ["minimum raised", { type: "number", minimum: 1 }, { type: "number", minimum: 2 }, "constraint-narrowed  breaking/compatible"],
    ["maximum removed", { type: "number", maximum: 1 }, { type: "number" }, "constraint-widened  compatible/breaking"],
    ["minimum → exclusive", { type: "number", minimum: 1 }, { type: "number", exclusiveMinimum: 1 }, "constraint-narrowed  breaking/compatible"],
    ["draft-04 exclusive → inclusive", { type: "number", maximum: 1, exclusiveMaximum: true }, { type: "number", maximum: 1 }, "constraint-widened  compatible/breaking"],
    ["multipleOf 5 → 10 narrows", { type: "number", multipleOf: 5 }, { type: "number", multipleOf: 10 }, "constraint-narrowed  breaking/compatible"],
    ["multipleOf 10 → 5 widens", { type: "number", multipleOf: 10 }, { type: "number", multipleOf: 5 }, "constraint-widened  compatible/breaking"],
    ["multipleOf 7 → 13 changes", { type: "number", multipleOf: 7 }, { type: "number", multipleOf: 13 }, "constraint-changed  breaking/breaking"],
    ["pattern added", { type: "string" }, { type: "string", pattern: "^a" }, "constraint-narrowed  breaking/compatible"],
    ["pattern changed", { type: "string", pattern: "^a" }, { type: "string", pattern: "^b" }, "constraint-changed  breaking/breaking"],
    ["pattern widened", { type: "string", pattern: "^ORD-[0-9]+$" }, { type: "string", pattern: "^ORD-[0-9A-Z]+$" }, "constraint-widened  compatible/breaking"],
    ["pattern narrowed", { type: "string", pattern: "^c[0-9]+$" }, { type: "string", pattern: "^c[0-9]{1,3}$" }, "constraint-narrowed  breaking/compatible"],
    ["format removed", { type: "string", format: "email" }, { type: "string" }, "constraint-widened  compatible/breaking"],
    ["format changed", { type: "string", format: "date" }, { type: "string", format: "date-time" }, "constraint-changed  breaking/breaking"],
    ["minItems raised", { type: "array", minItems: 1 }, { type: "array", minItems: 2 }, "constraint-narrowed  breaking/compatible"],
    ["uniqueItems added", { type: "array" }, { type: "array", uniqueItems: true }, "constraint-narrowed  breaking/compatible"],
    ["nullable added", { type: "string" }, { type: ["string", "null"] }, "nullable-added  compatible/breaking"],
    ["nullable removed", { anyOf: [{ type: "string" }, { type: "null" }] }, { type: "string" }, "nullable-removed  breaking/compatible"],
    ["enum value added", { enum: ["a"] }, { enum: ["a", "b"] }, "enum-value-added  compatible/breaking"],
    ["enum value removed", { enum: ["a", "b"] }, { enum: ["a"] }, "enum-value-removed  breaking/compatible"],
    ["enum → its type", { type: "string", enum: ["a"] }, { type: "string" }, "type-widened  compatible/breaking"],
    ["type → const", { type: "string" }, { const: "a" }, "type-narrowed  breaking/compatible"],
    ["anything → string", true, { type: "string" }, "type-narrowed  breaking/compatible"],
    ["nothing → string", false, { type: "string" }, "type-widened  compatible/breaking"],
    ["description only", { type: "string", description: "a" }, { type: "string", description: "b" }, "description-changed  compatible/compatible"],
  ])("%s", (_, older, newer, expected) => {
    expect(schemaDiff(older, newer)).toEqual([expected]);
  });

  it("string variants of disjoint patterns pair by what they accept: one added widens, one narrowed narrows, reordered is no change", () => {
    const ids = (...patterns: string[]) => ({ oneOf: patterns.map((pattern) => ({ type: "string", pattern })) });
    expect(schemaDiff(ids("^usr_", "^org_"), ids("^usr_", "^org_", "^grp_"))).toEqual(["variant-added  compatible/breaking"]);
    expect(schemaDiff(ids("^usr_", "^org_"), ids("^usr_"))).toEqual(["variant-removed  breaking/compatible"]);
    expect(schemaDiff(ids("^usr_", "^org_"), ids("^usr_", "^org_[0-9]"))).toEqual(["constraint-narrowed  breaking/compatible"]);
    expect(schemaDiff(ids("^usr_", "^org_"), ids("^org_", "^usr_"))).toEqual([]);
  });

  it("a format beside an enum leaves only the values of that format", () => {
    const statuses = { type: "string", enum: ["succeeded", "a@b.co"] };
    expect(schemaDiff(statuses, { ...statuses, format: "email" })).toEqual(["enum-value-removed  breaking/compatible"]);
    // A format treaty does not know is an annotation: it removes nothing.
    expect(schemaDiff(statuses, { ...statuses, format: "x-status" })).toEqual([]);
  });

  it("patterns compare by the strings they accept, each break shown by a string", () => {
    // Unanchored and matching the empty string: every string matches `x*`.
    expect(schemaDiff({ type: "string" }, { type: "string", pattern: "x*" })).toEqual([]);
    expect(schemaDiff({ type: "string", pattern: "^\\d+$" }, { type: "string", pattern: "^[0-9]+$" })).toEqual([]);
    const [widened] = compare(shape({ type: "string", pattern: "^ORD-[0-9]+$" }), shape({ type: "string", pattern: "^ORD-[0-9A-Z]+$" }));
    expect(widened?.reason).toBe('pattern /^ORD-[0-9]+$/ → /^ORD-[0-9A-Z]+$/: "ORD-A" is accepted now');
    const [changed] = compare(shape({ type: "string", pattern: "^a" }), shape({ type: "string", pattern: "^b" }));
    expect(changed?.reason).toBe('pattern /^a/ → /^b/: "a" is no longer accepted; "b" is accepted now');
    // A backreference to a group of any length is no regular language: undecided, so breaking both ways.
    const squares = { type: "string", pattern: "^([ab]+)\\1$" };
    expect(schemaDiff(squares, { type: "string", pattern: "^(?:[ab][ab])+$" })).toEqual(["constraint-changed  breaking/breaking"]);
    // One of a fixed text is read as that text.
    expect(schemaDiff({ type: "string", pattern: "^(a)\\1$" }, { type: "string", pattern: "^aa$" })).toEqual([]);
  });

  it("list items compare at /*", () => {
    expect(schemaDiff({ type: "array", items: { type: "integer" } }, { type: "array", items: { type: "number" } })).toEqual([
      "type-widened /* compatible/breaking",
    ]);
  });

  it("a schema without `type` accepts every type its keywords do not constrain", () => {
    const differences = compare(shape({ maxLength: 3 }), shape({ type: "string", maxLength: 3 }));
    expect(verdicts(differences)).toBe("breaking/compatible");
    expect(differences.every((d) => d.kind === "variant-removed" || d.kind === "nullable-removed")).toBe(true);
  });

  it("an enum's fallback lets readers of the old version read new values", () => {
    const older = { type: "string", enum: ["a", "other"], "x-treaty-fallback": "other" };
    expect(schemaDiff(older, { ...older, enum: ["a", "other", "b"] })).toEqual(["enum-value-added  compatible/compatible"]);
  });
});

describe("JSON Schema: unions, references and guards", () => {
  const card = obj({ kind: { const: "card" }, last4: { type: "string" } }, { required: ["kind"], additionalProperties: false });
  const cash = obj({ kind: { const: "cash" } }, { required: ["kind"], additionalProperties: false });

  it("discriminated variants pair by tag value", () => {
    expect(schemaDiff({ oneOf: [card] }, { oneOf: [card, cash] })).toEqual(["variant-added  compatible/breaking"]);
    expect(schemaDiff({ oneOf: [card, cash] }, { oneOf: [cash] })).toEqual(["variant-removed  breaking/compatible"]);
    const [d] = compare(shape({ oneOf: [cash, card] }), shape({ oneOf: [card, cash] }));
    expect(d).toBeUndefined();
  });

  it("anyOf variants pair by type, and a variant added to a type widens it", () => {
    expect(schemaDiff({ type: "string" }, { type: ["string", "number"] })).toEqual(["variant-added  compatible/breaking"]);
    expect(schemaDiff({ anyOf: [{ type: "string" }, { type: "integer" }] }, { anyOf: [{ type: "number" }, { type: "string" }] })).toEqual([
      "type-widened  compatible/breaking",
    ]);
  });

  it("oneOf → anyOf over overlapping variants widens", () => {
    const variants = [{ type: "number", maximum: 100 }, { type: "number", multipleOf: 6 }];
    expect(schemaDiff({ oneOf: variants }, { anyOf: variants })).toEqual(["constraint-widened  compatible/breaking"]);
  });

  it("a variant removed, added or changed in a oneOf whose variants may share values breaks the direction that overlap moves", () => {
    const atMost5 = { type: "number", maximum: 5 };
    const atLeast5 = { type: "number", minimum: 5 };
    // 5 is of both variants, so the oneOf rejects it; with one variant left it is accepted: forward breaks (was compatible).
    expect(verdicts(compare(shape({ oneOf: [atMost5, atLeast5] }), shape({ oneOf: [atMost5] })))).toBe("breaking/breaking");
    expect(verdicts(compare(shape({ oneOf: [atMost5, atLeast5, { type: "string" }] }), shape({ oneOf: [atMost5, { type: "string" }] })))).toBe("breaking/breaking");
    // The reverse: 5 was accepted, and the variant added makes it of two: backward breaks (was compatible).
    expect(verdicts(compare(shape({ oneOf: [atMost5, { type: "string" }] }), shape({ oneOf: [atMost5, { type: "string" }, atLeast5] })))).toBe("breaking/breaking");
    // A variant widened into the other: 5 was of one, now of two (backward breaks); narrowed out of it, 5 is of one again (forward).
    const below5 = { type: "number", exclusiveMaximum: 5 };
    expect(verdicts(compare(shape({ oneOf: [below5, atLeast5] }), shape({ oneOf: [atMost5, atLeast5] })))).toBe("breaking/breaking");
    expect(verdicts(compare(shape({ oneOf: [atMost5, atLeast5] }), shape({ oneOf: [below5, atLeast5] })))).toBe("breaking/breaking");
    // Variants of distinct JSON types share no value, and an anyOf rejects none: a removal breaks backward only, as before.
    expect(verdicts(compare(shape({ oneOf: [atMost5, { type: "string" }] }), shape({ oneOf: [atMost5] })))).toBe("breaking/compatible");
    expect(verdicts(compare(shape({ anyOf: [atMost5, atLeast5] }), shape({ anyOf: [atMost5] })))).toBe("breaking/compatible");
    // Strings of disjoint patterns share no value either; "ab" is of both `^a` and `b$`.
    const text = (pattern: string) => ({ type: "string", pattern });
    expect(verdicts(compare(shape({ oneOf: [text("^a"), text("^b")] }), shape({ oneOf: [text("^a")] })))).toBe("breaking/compatible");
    expect(verdicts(compare(shape({ oneOf: [text("^a"), text("b$")] }), shape({ oneOf: [text("^a")] })))).toBe("breaking/breaking");
  });

  it("values shared through null, a nested oneOf or a schema without type count as shared", () => {
    const point = (type: unknown) => ({ type, required: ["x"], properties: { x: { type: "number" } } });
    // null was of the null variant only; with Point nullable it is of two, and the oneOf rejects it.
    const geometry = (type: unknown) => ({ $defs: { point: point(type), geometry: { oneOf: [{ $ref: "#/$defs/point" }, { type: "string" }] } }, oneOf: [{ type: "null" }, { $ref: "#/$defs/geometry" }] });
    expect(verdicts(compare(shape(geometry("object")), shape(geometry(["object", "null"]))))).toBe("breaking/breaking");
    // `{ maxLength: 5 }` takes every value that is no string, null among them.
    const link = (first: unknown) => ({ oneOf: [first, { type: "object" }, { type: "null" }] });
    expect(verdicts(compare(shape(link({ type: "string" })), shape(link({ maxLength: 5 }))))).toBe("breaking/breaking");
    // Apicurio's "Complex: oneOf 3": "abc" is of both new variants.
    expect(verdicts(compare(shape({ oneOf: [{ type: "string" }] }), shape({ oneOf: [{ type: "string" }, { maxLength: 5 }] })))).toBe("breaking/breaking");
  });

  it("local $ref, definitions and recursion", () => {
    const tree = (leaf: unknown) => ({
      $schema: "http://json-schema.org/draft-07/schema#",
      $ref: "#/definitions/Node",
      definitions: { Node: obj({ value: leaf, children: { type: "array", items: { $ref: "#/definitions/Node" } } }) },
    });
    expect(schemaDiff(tree({ type: "string" }), tree({ type: "string" }))).toEqual([]);
    expect(schemaDiff(tree({ type: "integer" }), tree({ type: "number" }))).toEqual(["type-widened /value compatible/breaking"]);
  });

  it("a recursive $ref in 2020-12 (keywords beside $ref apply) is the type it names, not any value", () => {
    const person = (children: unknown) => ({ $defs: { Person: obj({ name: { type: "string" }, children: { type: "array", items: children } }) }, $ref: "#/$defs/Person" });
    // Old children are persons; a new child may be a string, which old readers reject (was "any value → string", forward-compatible).
    expect(schemaDiff(person({ $ref: "#/$defs/Person" }), person({ type: "string" }))).toEqual(["type-changed /children/* breaking/breaking"]);
    expect(schemaDiff(person({ $ref: "#/$defs/Person" }), person(obj({ name: { type: "integer" } }))).at(0)).toBe("type-changed /children/*/name breaking/breaking");
  });

  it("recursion through undeclared keys ends", () => {
    const json = (extra: Record<string, unknown>) => ({
      $ref: "#/definitions/Value",
      definitions: { Value: { type: "object", properties: { a: { type: "string" }, ...extra }, additionalProperties: { $ref: "#/definitions/Value" } } },
    });
    expect(schemaDiff(json({}), json({ b: { $ref: "#/definitions/Value" } }))).toEqual(["field-added /b compatible/compatible"]);
  });

  it("inside `not` the directions swap", () => {
    expect(schemaDiff({ not: { type: "string", maxLength: 10 } }, { not: { type: "string", maxLength: 5 } })).toEqual([
      "constraint-narrowed  compatible/breaking",
    ]);
  });

  it("allOf merges into one shape", () => {
    expect(schemaDiff({ allOf: [{ type: "string" }, { maxLength: 5 }] }, { type: "string", maxLength: 5 })).toEqual([]);
  });

  it("what it cannot represent, it refuses with a reason", () => {
    expect(shapeOfJsonSchema({ $ref: "other.json#/x" })).toEqual({ ok: false, reason: '$ref "other.json#/x" points outside the document' });
    expect(shapeOfJsonSchema({ $ref: "#/definitions/missing" })).toMatchObject({ ok: false });
    expect(shapeOfJsonSchema({ type: "object", unevaluatedProperties: false })).toEqual({ ok: false, reason: "unevaluatedProperties is not supported" });
    // An unknown keyword named like an Object.prototype member is an annotation, not an unsupported keyword (its reason was Object's source).
    expect(shapeOfJsonSchema({ type: "object", properties: { a: { type: "string" } }, constructor: "x", toString: 1 })).toMatchObject({ ok: true });
    expect(shapeOfJsonSchema({ allOf: [{ type: "string", pattern: "a" }, { pattern: "b" }] })).toMatchObject({ ok: false });
    // Where one pattern includes the other, the two are the narrower one.
    expect(shapeOfJsonSchema({ allOf: [{ type: "string", pattern: "^ab" }, { pattern: "^a" }] })).toMatchObject({ ok: true, shape: { kind: "string", pattern: "^ab" } });
    expect(shapeOfJsonSchema({ type: "strnig" })).toEqual({ ok: false, reason: 'unknown type "strnig"' });
  });
});

describe("bumpNeeded", () => {
  it("none for documentation, minor for compatible changes, major for breaks of a promised direction", () => {
    const backward = ["backward"] as const;
    expect(bumpNeeded(compare(shape({ type: "string" }), shape({ type: "string", description: "x" })), backward)).toBe("none");
    expect(bumpNeeded(compare(shape({ type: "string", maxLength: 3 }), shape({ type: "string" })), backward)).toBe("minor");
    expect(bumpNeeded(compare(shape({ type: "string" }), shape({ type: "string", maxLength: 3 })), backward)).toBe("major");
    expect(bumpNeeded([], backward)).toBe("none");
    // Widening breaks forward only: a major under `forward` and `full`, a minor under `none`.
    const widened = compare(shape({ type: "string", maxLength: 3 }), shape({ type: "string" }));
    expect(bumpNeeded(widened, ["forward"])).toBe("major");
    expect(bumpNeeded(widened, ["backward", "forward"])).toBe("major");
    expect(bumpNeeded(widened, [])).toBe("minor");
  });
});

// ---- contract versions -------------------------------------------------------------------------

const scratch = mkdtempSync(join(tmpdir(), "treaty-compat-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let projects = 0;
const contractOf = (yaml: string): Contract => {
  const root = join(scratch, String(projects++));
  mkdirSync(join(root, "idl"), { recursive: true });
  writeFileSync(join(root, "idl", "demo.thing.yaml"), yaml);
  const compiled = compile({ root, idlDir: join(root, "idl") });
  const errors = compiled.diagnostics.filter((d) => d.severity === "error");
  if (!compiled.value || errors.length > 0) throw new Error(errors.map((d) => d.message).join("\n"));
  return compiled.value.contracts[0]!;
};

const history = (versions: string, head = "unknown_fields: reject"): Contract =>
  contractOf(`contract: demo.thing
owner: team
${head}
enums:
  Level:
    values: { LOW: Low., HIGH: High. }
  Mood:
    fallback: UNKNOWN
    values: { UNKNOWN: Not known., CALM: Calm. }
versions:
${versions}`);

const between = (contract: Contract, older: string, newer: string): readonly Difference[] => {
  const version = (v: string) => contract.versions.find((candidate) => candidate.version === v)!;
  return versionDifferences(contract, version(older), version(newer));
};

const BASE = `  "1.0":
    fields:
      id: { type: string, maxLength: 20 }
      level: Level
      mood: Mood
      count: { type: int, min: 0, optional: true }
      note: { type: string, maxLength: 50, optional: true }
`;

describe("contract versions", () => {
  it("an optional field added: forward-breaking under reject, compatible both ways under strip", () => {
    const added = `${BASE}  "1.1":\n    changes:\n      - add: extra\n        type: { type: string, maxLength: 5 }\n        optional: true\n`;
    expect(brief(between(history(added), "1.0", "1.1"))).toEqual(["field-added /extra compatible/breaking"]);
    const strip = between(history(added, "unknown_fields: strip"), "1.0", "1.1");
    expect(brief(strip)).toEqual(["field-added /extra compatible/compatible"]);
    expect(strip[0]!.reason).toContain("ignore unknown keys");
  });

  it("an enum value added breaks forward unless the enum has a fallback", () => {
    const contract = history(`${BASE}  "1.1":\n    changes:\n      - enum: Level\n        add: { MID: Middle. }\n      - enum: Mood\n        add: { SAD: Sad. }\n`);
    expect(brief(between(contract, "1.0", "1.1"))).toEqual([
      "enum-value-added /level compatible/breaking",
      "enum-value-added /mood compatible/compatible",
    ]);
  });

  it("required → optional breaks forward; optional → required breaks backward unless a default is declared", () => {
    const contract = history(`${BASE}  "1.1":
    changes:
      - relax: id
  "2.0":
    from: "1.1"
    changes:
      - require: count
      - require: note
        default: ""
`);
    expect(brief(between(contract, "1.0", "1.1"))).toEqual(["field-optional /id compatible/breaking"]);
    const required = between(contract, "1.1", "2.0");
    expect(brief(required)).toEqual(["field-required /count breaking/compatible", "field-required /note compatible/compatible"]);
    expect(required[1]!.reason).toContain("declared default");
  });

  it("a field added optional, then required with a default: filled in data older than both, as the require alone is", () => {
    const contract = history(`${BASE}  "1.1":
    changes:
      - add: extra
        type: { type: string, maxLength: 5 }
        optional: true
  "1.2":
    changes:
      - require: extra
        default: zz
      - add: bare
        type: { type: string, maxLength: 5 }
        optional: true
  "2.0":
    from: "1.2"
    changes:
      - require: bare
`);
    const filled = between(contract, "1.0", "1.2");
    expect(brief(filled)).toEqual(["field-added /extra compatible/breaking", "field-added /bare compatible/breaking"]);
    expect(filled[0]!.reason).toContain('fill it with "zz" in old data (declared default)');
    // Required with no default declared: old data lacks it.
    expect(brief(between(contract, "1.0", "2.0"))).toContain("field-added /bare breaking/breaking");
  });

  it("a rename and a move in either order are one move across versions, readable backward through the adapters", () => {
    const contract = history(`${BASE}  "1.1":
    changes:
      - rename: { from: note, to: remark }
  "1.2":
    changes:
      - nest: { from: remark, to: extra.remark }
      - nest: { from: id, to: ref.id }
  "1.3":
    changes:
      - rename: { from: ref.id, to: key }
`);
    const moved = between(contract, "1.0", "1.3");
    expect(brief(moved).filter((d) => !d.startsWith("field-added /extra ") && !d.startsWith("field-added /ref "))).toEqual([
      "field-moved /extra/remark compatible/breaking",
      "field-moved /ref/key compatible/breaking",
    ]);
    expect(moved.some((d) => d.kind === "field-removed")).toBe(false);
  });

  it("int → number and back", () => {
    const contract = history(`${BASE}  "1.1":
    changes:
      - retype: count
        type: { type: number, min: 0 }
  "2.0":
    from: "1.1"
    changes:
      - retype: count
        type: { type: int, min: 0 }
`);
    expect(brief(between(contract, "1.0", "1.1"))).toEqual(["type-widened /count compatible/breaking"]);
    expect(brief(between(contract, "1.1", "2.0"))).toEqual(["type-narrowed /count breaking/compatible"]);
  });

  it("a declared rename is one difference, readable backward through the adapters; an undeclared one is a removal and an addition", () => {
    const contract = history(`${BASE}  "2.0":
    from: "1.0"
    changes:
      - rename: { from: note, to: remark }
  "3.0":
    fields:
      id: { type: string, maxLength: 20 }
      level: Level
      mood: Mood
      count: { type: int, min: 0, optional: true }
      comment: { type: string, maxLength: 50, optional: true }
`);
    const declared = between(contract, "1.0", "2.0");
    expect(brief(declared)).toEqual(["field-renamed /remark compatible/breaking"]);
    expect(declared[0]!.loc?.line).toBe(contract.versions[1]!.changes[0]!.loc.line);
    expect(brief(between(contract, "2.0", "3.0"))).toEqual(["field-removed /remark breaking/compatible", "field-added /comment compatible/breaking"]);
  });

  it("a description-only edit needs no bump", () => {
    const contract = history(`${BASE}  "1.1":
    fields:
      id: { type: string, maxLength: 20, description: The id. }
      level: Level
      mood: Mood
      count: { type: int, min: 0, optional: true }
      note: { type: string, maxLength: 50, optional: true }
`);
    const differences = between(contract, "1.0", "1.1");
    expect(brief(differences)).toEqual(["description-changed /id compatible/compatible"]);
    expect(bumpNeeded(differences, ["backward", "forward"])).toBe("none");
  });

  it("union variants added and removed, paired by tag", () => {
    const contract = contractOf(`contract: demo.thing
owner: team
versions:
  "1.0":
    fields:
      pay:
        type: union
        tag: kind
        variants:
          card: { fields: { last4: { type: string, maxLength: 4 } } }
  "1.1":
    changes:
      - retype: pay
        type:
          type: union
          tag: kind
          variants:
            card: { fields: { last4: { type: string, maxLength: 4 } } }
            cash: { fields: { amount: { type: int, min: 0 } } }
  "2.0":
    from: "1.1"
    changes:
      - retype: pay
        type:
          type: union
          tag: kind
          variants:
            cash: { fields: { amount: { type: int, min: 0 } } }
`);
    expect(brief(between(contract, "1.0", "1.1"))).toEqual(["variant-added /pay compatible/breaking"]);
    expect(brief(between(contract, "1.1", "2.0"))).toEqual(["variant-removed /pay breaking/compatible"]);
  });

  it("ref schemes, lists, maps and nested objects", () => {
    const contract = contractOf(`contract: demo.thing
owner: team
versions:
  "1.0":
    fields:
      doc: ref<s3>
      tags: { type: list, of: { type: string, maxLength: 10 }, maxItems: 5 }
      scores: { type: map, of: int }
      meta: { type: object, fields: { a: { type: string, maxLength: 5 } } }
  "2.0":
    from: "1.0"
    changes:
      - retype: doc
        type: ref<gs>
      - constrain: tags
        maxItems: 3
      - retype: scores
        type: { type: map, of: number }
      - constrain: meta.a
        maxLength: 9
`);
    expect(brief(between(contract, "1.0", "2.0"))).toEqual([
      "ref-scheme-changed /doc breaking/breaking",
      "constraint-narrowed /tags breaking/compatible",
      "type-widened /scores/* compatible/breaking",
      "constraint-widened /meta/a compatible/breaking",
    ]);
  });

  it("nest, wrap and head are read through the new version's adapters", () => {
    const contract = contractOf(`contract: demo.thing
owner: team
unknown_fields: strip
versions:
  "1.0":
    fields:
      id: { type: string, maxLength: 20 }
      tag: { type: string, maxLength: 20 }
      first: { type: list, of: { type: string, maxLength: 20 }, minItems: 1 }
  "2.0":
    from: "1.0"
    changes:
      - nest: { from: id, to: meta.id }
      - wrap: tag
      - head: first
`);
    expect(brief(between(contract, "1.0", "2.0"))).toEqual([
      "type-changed /tag compatible/breaking",
      "type-changed /first compatible/breaking",
      "field-added /meta compatible/compatible",
      "field-moved /meta/id compatible/breaking",
    ]);
  });

  it("a difference points at the change that declares it", () => {
    const contract = history(`${BASE}  "2.0":\n    from: "1.0"\n    changes:\n      - constrain: id\n        maxLength: 10\n`);
    const [d] = between(contract, "1.0", "2.0");
    expect(d).toMatchObject({ kind: "constraint-narrowed", path: "/id", loc: { file: "idl/demo.thing.yaml", line: 21 } });
  });
});

describe("the two importers agree", () => {
  it("a version's shape equals the shape of its emitted JSON Schema, envelope and notes aside", () => {
    const contract = history(`${BASE}      tags: { type: list, of: { type: string, maxLength: 10 }, unique: true }
      at: { type: timestamp, nullable: the time is unknown }
      scores: { type: map, of: { type: number, exclusiveMin: 0 } }
`);
    const project = { contracts: [contract] };
    const version = contract.versions[0]!;
    const differences = compare(shapeOfVersion(contract, version), shape(toJsonSchema(project, contract, version)));
    const meaningful = differences.filter((d) => d.kind !== "description-changed" && !["/contract", "/version"].includes(d.path));
    expect(meaningful).toEqual([]);
  });
});

describe("contract versions: open objects", () => {
  const meta = (policy: string, fields = "a: { type: string, maxLength: 5 }") => `      id: { type: string, maxLength: 20 }
      meta:
        type: object
        ${policy}
        fields: { ${fields} }
`;
  const pair = (older: string, newer: string) =>
    brief(between(history(`  "1.0":\n    fields:\n${older}  "2.0":\n    fields:\n${newer}`), "1.0", "2.0"));

  it("reject → keep opens the object: old readers refuse the keys new writers pass on (forward); the reverse breaks backward", () => {
    expect(pair(meta("unknown_fields: reject"), meta("unknown_fields: keep"))).toEqual(["unknown-fields-opened /meta compatible/breaking"]);
    expect(pair(meta("unknown_fields: keep"), meta("unknown_fields: reject"))).toEqual(["unknown-fields-closed /meta breaking/compatible"]);
  });

  // The engine ranks strip (reads any key) above keep (reads the keys' type): strip → keep "closes".
  it("strip ↔ keep is compatible both ways: a stripping reader ignores what a keeping writer passes on", () => {
    expect(pair(meta("unknown_fields: strip"), meta("unknown_fields: keep"))).toEqual(["unknown-fields-closed /meta compatible/compatible"]);
    expect(pair(meta("unknown_fields: keep"), meta("unknown_fields: strip"))).toEqual(["unknown-fields-opened /meta compatible/compatible"]);
  });

  it("additional follows the value-type rules at /*", () => {
    expect(pair(meta("additional: { type: int }"), meta("additional: { type: number }"))).toEqual(["type-widened /meta/* compatible/breaking"]);
    expect(pair(meta("additional: { type: number }"), meta("additional: { type: int }"))).toEqual(["type-narrowed /meta/* breaking/compatible"]);
    expect(pair(meta("unknown_fields: keep"), meta("additional: { type: int }"))).toEqual(["type-narrowed /meta/* breaking/compatible"]);
  });

  it("a field added to a kept object: old data may hold that key with any value (backward); typed by additional, only if the types differ", () => {
    const added = "a: { type: string, maxLength: 5 }, b: { type: int, optional: true }";
    expect(pair(meta("unknown_fields: keep"), meta("unknown_fields: keep", added))).toEqual([expect.stringMatching(/^field-added \/meta\/b breaking\/compatible$/)]);
    expect(pair(meta("additional: { type: int }"), meta("additional: { type: int }", added))).toEqual([expect.stringMatching(/^field-added \/meta\/b compatible\/compatible$/)]);
  });
});

describe("json and tuple", () => {
  const JSON_BASE = `  "1.0":
    fields:
      id: { type: string, maxLength: 20 }
      data: { type: json, maxDepth: 4, maxBytes: 1000 }
      pair: { type: tuple, items: [{ type: string, maxLength: 5 }, int] }
`;

  it("json bounds tighten or loosen like other constraints", () => {
    const contract = history(`${JSON_BASE}  "1.1":
    changes:
      - constrain: data
        maxDepth: 8
        maxBytes: null
  "2.0":
    from: "1.1"
    changes:
      - constrain: data
        maxDepth: 2
`);
    expect(brief(between(contract, "1.0", "1.1"))).toEqual(["constraint-widened /data compatible/breaking", "constraint-widened /data compatible/breaking"]);
    expect(brief(between(contract, "1.1", "2.0"))).toEqual(["constraint-narrowed /data breaking/compatible"]);
  });

  it("narrowing json to a concrete type breaks backward; widening a type to json breaks forward", () => {
    const contract = history(`${JSON_BASE}  "2.0":
    from: "1.0"
    changes:
      - retype: data
        type: { type: string, maxLength: 10 }
      - retype: id
        type: json
`);
    expect(brief(between(contract, "1.0", "2.0"))).toEqual(["type-widened /id compatible/breaking", "type-narrowed /data breaking/compatible"]);
  });

  it("a tuple compares position by position", () => {
    const contract = history(`${JSON_BASE}  "2.0":
    from: "1.0"
    changes:
      - retype: pair
        type: { type: tuple, items: [{ type: string, maxLength: 9 }, int] }
`);
    expect(brief(between(contract, "1.0", "2.0"))).toEqual(["constraint-widened /pair/0 compatible/breaking"]);
  });
});
