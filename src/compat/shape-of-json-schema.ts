// Imports a JSON Schema (draft-07 or 2020-12, also draft-04's boolean exclusive bounds) into the
// compatibility model, keeping JSON Schema's meaning: without `additionalProperties` extra keys
// are allowed, and a schema without `type` accepts every type (`{ maxLength: 5 }` accepts any
// number, and strings up to 5). Annotations and unknown keywords are ignored, as validators do;
// keywords the model cannot represent make the import fail with a reason.
import type { JsonValue } from "../ir/model.js";
import { refPattern } from "../ir/ref-pattern.js";
import { CannotImport, defined, intersect, stricterBound } from "./intersect.js";
import {
  ANY,
  NEVER,
  canonicalJson,
  type ArrayShape,
  type Bound,
  type EnumShape,
  type NumberShape,
  type ObjectShape,
  type Openness,
  type Property,
  type Shape,
  type StringShape,
  type Variant,
} from "./shape.js";

export type ShapeImport = { readonly ok: true; readonly shape: Shape } | { readonly ok: false; readonly reason: string };

type Schema = { readonly [key: string]: unknown };

const UNSUPPORTED: Readonly<Record<string, string>> = {
  $dynamicRef: "$dynamicRef is not supported",
  $recursiveRef: "$recursiveRef is not supported",
  unevaluatedProperties: "unevaluatedProperties is not supported",
  unevaluatedItems: "unevaluatedItems is not supported",
  minContains: "minContains is not supported",
  maxContains: "maxContains is not supported",
};

const STRING_KEYWORDS = ["minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const ARRAY_KEYWORDS = ["items", "prefixItems", "additionalItems", "contains", "minItems", "maxItems", "uniqueItems"];
const OBJECT_KEYWORDS = [
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "dependencies",
  "dependentRequired",
  "dependentSchemas",
];

const ALL_TYPES = ["null", "boolean", "number", "string", "array", "object"];

const isSchemaObject = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads one schema document; shapes of `$ref` targets are shared, so recursive schemas stay finite. */
interface Importer {
  readonly root: unknown;
  /** Draft-07 and older ignore keywords beside `$ref`; 2019-09 and later apply them too. */
  readonly refIgnoresSiblings: boolean;
  readonly anchors: ReadonlyMap<string, unknown>;
  readonly byTarget: Map<unknown, Shape>;
  /** Shapes of `$ref` targets still being imported: a reference back to one is recursion. */
  readonly pending: Set<Shape>;
}

const number = (schema: Schema, key: string): number | undefined => {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) throw new CannotImport(`${key} must be a number`);
  return value;
};

const text = (schema: Schema, key: string): string | undefined => {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new CannotImport(`${key} must be a string`);
  return value;
};

const names = (value: unknown, key: string): readonly string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) throw new CannotImport(`${key} must be a list of names`);
  return value as string[];
};

const entries = (schema: Schema, key: string): readonly [string, unknown][] => {
  const value = schema[key];
  if (value === undefined) return [];
  if (!isSchemaObject(value)) throw new CannotImport(`${key} must be an object`);
  return Object.entries(value);
};

/** Collects `$id: "#name"` (draft-07) and `$anchor: "name"` (2019+) so `$ref: "#name"` resolves. */
const collectAnchors = (node: unknown, into: Map<string, unknown>): Map<string, unknown> => {
  if (Array.isArray(node)) node.forEach((item) => collectAnchors(item, into));
  else if (isSchemaObject(node)) {
    if (typeof node["$id"] === "string" && node["$id"].startsWith("#")) into.set(node["$id"], node);
    if (typeof node["$anchor"] === "string") into.set(`#${node["$anchor"]}`, node);
    Object.values(node).forEach((value) => collectAnchors(value, into));
  }
  return into;
};

const resolvePointer = (imp: Importer, ref: string): unknown => {
  const rootId = isSchemaObject(imp.root) && typeof imp.root["$id"] === "string" ? imp.root["$id"].replace(/#$/, "") : undefined;
  const local = rootId && ref.startsWith(`${rootId}#`) ? ref.slice(rootId.length) : ref;
  if (!local.startsWith("#")) throw new CannotImport(`$ref "${ref}" points outside the document`);
  if (local !== "#" && !local.startsWith("#/")) {
    const anchored = imp.anchors.get(local);
    if (anchored === undefined) throw new CannotImport(`$ref "${ref}" names no anchor of the document`);
    return anchored;
  }
  let node: unknown = imp.root;
  for (const raw of local.slice(2).split("/").filter((_, i, all) => all.length > 1 || all[0] !== "")) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = Array.isArray(node) ? node[Number(segment)] : isSchemaObject(node) ? node[segment] : undefined;
    if (node === undefined) throw new CannotImport(`$ref "${ref}" does not resolve`);
  }
  return node;
};

/** The shape of a `$ref` target, imported once; a reference back into it while importing gets the same object. */
const referenced = (imp: Importer, ref: string): Shape => {
  const target = resolvePointer(imp, ref);
  const known = imp.byTarget.get(target);
  if (known) return known;
  // Filled in place once the target is imported, so every reference shares one (possibly cyclic) shape.
  const placeholder: Record<string, unknown> = { kind: "any" };
  const shape = placeholder as unknown as Shape;
  imp.byTarget.set(target, shape);
  imp.pending.add(shape);
  const imported = importSchema(imp, target);
  imp.pending.delete(shape);
  if (imported === shape) throw new CannotImport(`$ref "${ref}" refers only to itself`);
  Object.assign(placeholder, imported);
  return shape;
};

const lowerBound = (schema: Schema, inclusiveKey: string, exclusiveKey: string): Bound | undefined => {
  const inclusive = number(schema, inclusiveKey);
  const exclusive = schema[exclusiveKey];
  // Draft-04: a boolean `exclusiveMinimum` makes `minimum` exclusive.
  if (typeof exclusive === "boolean") return inclusive === undefined ? undefined : { value: inclusive, exclusive };
  const strict = number(schema, exclusiveKey);
  const upper = inclusiveKey === "maximum";
  return stricterBound(
    inclusive === undefined ? undefined : { value: inclusive, exclusive: false },
    strict === undefined ? undefined : { value: strict, exclusive: true },
    upper,
  );
};

const numberShape = (schema: Schema, integer: boolean): NumberShape => {
  const multipleOf = number(schema, "multipleOf");
  if (multipleOf !== undefined && multipleOf <= 0) throw new CannotImport("multipleOf must be greater than 0");
  return defined({
    kind: "number",
    integer,
    lower: lowerBound(schema, "minimum", "exclusiveMinimum"),
    upper: lowerBound(schema, "maximum", "exclusiveMaximum"),
    multipleOf,
  });
};

/** The scheme of a pattern that is exactly treaty's `ref<scheme>` pattern (`^s3://.+`). */
const refScheme = (pattern: string | undefined): string | undefined => {
  const scheme = pattern?.match(/^\^(.+):\/\/\.\+$/)?.[1]?.replace(/\\(.)/g, "$1");
  return scheme !== undefined && /^[a-z][a-z0-9+.-]*$/.test(scheme) && refPattern(scheme) === pattern ? scheme : undefined;
};

const stringShape = (schema: Schema): StringShape => {
  const pattern = text(schema, "pattern");
  const scheme = refScheme(pattern);
  return defined({
    kind: "string",
    minLength: number(schema, "minLength"),
    maxLength: number(schema, "maxLength"),
    pattern: scheme === undefined ? pattern : undefined,
    format: text(schema, "format"),
    contentEncoding: text(schema, "contentEncoding"),
    contentMediaType: text(schema, "contentMediaType"),
    scheme,
  });
};

const optionalSchema = (imp: Importer, schema: Schema, key: string): Shape | undefined =>
  schema[key] === undefined ? undefined : importSchema(imp, schema[key]);

const arrayShape = (imp: Importer, schema: Schema): ArrayShape => {
  const items = schema["items"];
  const tuple = Array.isArray(items) ? items : Array.isArray(schema["prefixItems"]) ? schema["prefixItems"] : undefined;
  // Draft-07 tuples: `items: [...]` then `additionalItems`; 2020-12: `prefixItems` then `items`.
  const rest = Array.isArray(items) ? optionalSchema(imp, schema, "additionalItems") : optionalSchema(imp, schema, "items");
  const uniqueItems = schema["uniqueItems"];
  if (uniqueItems !== undefined && typeof uniqueItems !== "boolean") throw new CannotImport("uniqueItems must be a boolean");
  return defined({
    kind: "array",
    prefix: tuple && tuple.length > 0 ? tuple.map((item) => importSchema(imp, item)) : undefined,
    items: rest ?? ANY,
    minItems: number(schema, "minItems"),
    maxItems: number(schema, "maxItems"),
    unique: uniqueItems === true ? true : undefined,
    contains: optionalSchema(imp, schema, "contains"),
  });
};

const openness = (imp: Importer, schema: Schema): Openness => {
  const additional = schema["additionalProperties"];
  if (additional === undefined || additional === true) return { kind: "open", shape: ANY };
  if (additional === false) return { kind: "closed" };
  return { kind: "open", shape: importSchema(imp, additional) };
};

const objectShape = (imp: Importer, schema: Schema): ObjectShape => {
  const required = names(schema["required"], "required");
  const declared = entries(schema, "properties").map(
    ([name, value]): Property => ({ name, required: required.includes(name), shape: importSchema(imp, value) }),
  );
  const dependentRequired = [
    ...entries(schema, "dependencies").filter(([, value]) => Array.isArray(value)),
    ...entries(schema, "dependentRequired"),
  ].map(([key, value]) => ({ key, names: names(value, "dependentRequired") }));
  const patterns = entries(schema, "patternProperties").map(([pattern, value]) => ({ pattern, shape: importSchema(imp, value) }));
  const extra = openness(imp, schema);
  // A required key without a schema of its own takes what undeclared keys may hold.
  const undeclared = required
    .filter((name) => !declared.some((p) => p.name === name))
    .map((name): Property => ({ name, required: true, shape: extra.kind === "open" ? extra.shape : NEVER }));
  const keyNames = optionalSchema(imp, schema, "propertyNames");
  const base: ObjectShape = defined({
    kind: "object",
    properties: [...declared, ...undeclared],
    extra,
    patterns: patterns.length > 0 ? patterns : undefined,
    propertyNames: keyNames && intersect({ kind: "string" }, keyNames, imp.pending),
    minProperties: number(schema, "minProperties"),
    maxProperties: number(schema, "maxProperties"),
    dependentRequired: dependentRequired.length > 0 ? dependentRequired : undefined,
  });
  // Like `then`, a dependent schema judges objects that already passed the rest.
  const dependentSchemas = [
    ...entries(schema, "dependencies").filter(([, value]) => !Array.isArray(value)),
    ...entries(schema, "dependentSchemas"),
  ].map(([key, value]) => ({ key, shape: intersect(base, importSchema(imp, value), imp.pending) }));
  return dependentSchemas.length > 0 ? { ...base, dependentSchemas } : base;
};

const shapeOfType = (imp: Importer, schema: Schema, type: string): Shape => {
  switch (type) {
    case "null":
      return { kind: "null" };
    case "boolean":
      return { kind: "boolean" };
    case "integer":
    case "number":
      return numberShape(schema, type === "integer");
    case "string":
      return stringShape(schema);
    case "array":
      return arrayShape(imp, schema);
    case "object":
      return objectShape(imp, schema);
    default:
      throw new CannotImport(`unknown type "${type}"`);
  }
};

/**
 * The types a schema admits: its `type`; without one, every type, each with the keywords that
 * apply to it (`{ maxLength: 5 }` accepts any number, and strings up to 5); undefined when no
 * keyword constrains any type (anything goes).
 */
const typesOf = (schema: Schema): readonly string[] | undefined => {
  const type = schema["type"];
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) {
    if (!type.every((t) => typeof t === "string")) throw new CannotImport("type must be a name or a list of names");
    return type as string[];
  }
  if (type !== undefined) throw new CannotImport("type must be a name or a list of names");
  const keywords = [...STRING_KEYWORDS, ...NUMBER_KEYWORDS, ...ARRAY_KEYWORDS, ...OBJECT_KEYWORDS];
  return keywords.some((key) => schema[key] !== undefined) ? ALL_TYPES : undefined;
};

/** A plain null variant: folded into `nullable` of the others. */
const isPlainNull = (shape: Shape): boolean => shape.kind === "null" && !shape.not && !shape.conditional;

/** The property every variant requires with its own single string value, if there is one. */
const discriminator = (variants: readonly Shape[]): { tag: string; keys: string[] } | undefined => {
  if (variants.length < 2 || !variants.every((v): v is ObjectShape => v.kind === "object")) return undefined;
  const constant = (shape: ObjectShape, name: string): string | undefined => {
    const property = shape.properties.find((p) => p.name === name && p.required);
    const value = property?.shape.kind === "enum" && property.shape.values.length === 1 ? property.shape.values[0]!.value : undefined;
    return typeof value === "string" ? value : undefined;
  };
  for (const { name } of variants[0]!.properties) {
    const keys = variants.map((v) => constant(v, name));
    if (keys.every((k): k is string => k !== undefined) && new Set(keys).size === keys.length) return { tag: name, keys };
  }
  return undefined;
};

/** anyOf / oneOf / a `type` list: nested anyOf flattened, plain null folded into `nullable`, one variant unwrapped. */
const unionOf = (imp: Importer, shapes: readonly Shape[], exclusive: boolean): Shape => {
  const flat = shapes.flatMap((s): Shape[] =>
    !exclusive && s.kind === "union" && !s.exclusive && !s.not && !s.conditional && !imp.pending.has(s)
      ? [...s.variants.map((v) => v.shape), ...(s.nullable ? [{ kind: "null" } as const] : [])]
      : [s],
  );
  const nullable = flat.some(isPlainNull);
  const variants = flat.filter((s) => s.kind !== "never" && !isPlainNull(s));
  if (!exclusive && variants.some((s) => s.kind === "any" && !s.not && !s.conditional)) return ANY;
  if (variants.length === 0) return nullable ? { kind: "null" } : NEVER;
  const only = variants.length === 1 ? variants[0]! : undefined;
  if (only && !nullable) return only;
  if (only && !imp.pending.has(only)) return { ...only, nullable: true };
  const tagged = discriminator(variants);
  return defined({
    kind: "union",
    variants: variants.map((shape, i): Variant => defined({ key: tagged?.keys[i], shape })),
    tag: tagged?.tag,
    exclusive,
    nullable: nullable ? true : undefined,
  });
};

const enumShape = (schema: Schema): Shape | undefined => {
  const listed = schema["enum"];
  if (listed !== undefined && !Array.isArray(listed)) throw new CannotImport("enum must be a list");
  const constant = "const" in schema ? [schema["const"] as JsonValue] : undefined;
  const all = (listed as JsonValue[] | undefined) ?? constant;
  if (all === undefined) return undefined;
  const values = constant && listed ? (listed as JsonValue[]).filter((v) => canonicalJson(v) === canonicalJson(constant[0]!)) : all;
  const nonNull = values.filter((v) => v !== null);
  if (values.length > 0 && nonNull.length === 0) return { kind: "null" };
  // treaty's own schemas carry the enum's fallback.
  const fallback = schema["x-treaty-fallback"];
  return defined<EnumShape>({
    kind: "enum",
    values: nonNull.map((value) => ({ value })),
    fallback: typeof fallback === "string" ? fallback : undefined,
    nullable: nonNull.length < values.length ? true : undefined,
  });
};

/**
 * `not` and `if`/`then`/`else` on top of `base`. The branches are read within `base` (a value
 * they judge already passed it), so `then: { properties: { data: { pattern } } }` compares as
 * the string it constrains rather than as "anything, or a string matching".
 */
const withGuards = (imp: Importer, schema: Schema, base: Shape): Shape => {
  const within = (key: string): Shape | undefined =>
    schema[key] === undefined ? undefined : intersect(base, importSchema(imp, schema[key]), imp.pending);
  let shape = base;
  const not = within("not");
  if (not) shape = intersect(shape, { kind: "any", not }, imp.pending);
  if (schema["if"] !== undefined) {
    const conditional = defined({ if: importSchema(imp, schema["if"]), then: within("then"), else: within("else") });
    shape = intersect(shape, { kind: "any", conditional }, imp.pending);
  }
  return shape;
};

const applicators = (imp: Importer, schema: Schema, key: string): readonly Shape[] | undefined => {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) throw new CannotImport(`${key} must be a non-empty list`);
  return value.map((item) => importSchema(imp, item));
};

const importObject = (imp: Importer, schema: Schema): Shape => {
  // Own keys of the table only: a schema's key `constructor` is no unsupported keyword.
  for (const key of Object.keys(schema)) if (Object.hasOwn(UNSUPPORTED, key)) throw new CannotImport(UNSUPPORTED[key]!);
  const ref = schema["$ref"];
  if (ref !== undefined && typeof ref !== "string") throw new CannotImport("$ref must be a string");
  if (ref !== undefined && imp.refIgnoresSiblings) return referenced(imp, ref);
  const types = typesOf(schema);
  // `integer` beside `number` adds nothing.
  const distinct = [...new Set(types)].filter((t) => t !== "integer" || !types?.includes("number"));
  const typed = types === undefined ? ANY : unionOf(imp, distinct.map((t) => shapeOfType(imp, schema, t)), false);
  const values = enumShape(schema);
  let shape = values ? intersect(typed, values, imp.pending) : typed;
  for (const part of applicators(imp, schema, "allOf") ?? []) shape = intersect(shape, part, imp.pending);
  const anyOf = applicators(imp, schema, "anyOf");
  if (anyOf) shape = intersect(shape, unionOf(imp, anyOf, false), imp.pending);
  const oneOf = applicators(imp, schema, "oneOf");
  if (oneOf) shape = intersect(shape, unionOf(imp, oneOf, true), imp.pending);
  if (ref !== undefined) shape = intersect(shape, referenced(imp, ref), imp.pending);
  shape = withGuards(imp, schema, shape);
  const description = text(schema, "description");
  return description === undefined || imp.pending.has(shape) ? shape : { ...shape, description };
};

const importSchema = (imp: Importer, schema: unknown): Shape => {
  if (schema === true) return ANY;
  if (schema === false) return NEVER;
  if (!isSchemaObject(schema)) throw new CannotImport("a schema must be an object or a boolean");
  return importObject(imp, schema);
};

const DRAFTS_IGNORING_REF_SIBLINGS = /draft-0[3-7]\b/;

/** The compatibility model of a JSON Schema document, or why it cannot be read. */
export const shapeOfJsonSchema = (schema: unknown): ShapeImport => {
  const dialect = isSchemaObject(schema) && typeof schema["$schema"] === "string" ? schema["$schema"] : "";
  const imp: Importer = {
    root: schema,
    refIgnoresSiblings: DRAFTS_IGNORING_REF_SIBLINGS.test(dialect),
    anchors: collectAnchors(schema, new Map()),
    byTarget: new Map(),
    pending: new Set(),
  };
  try {
    return { ok: true, shape: importSchema(imp, schema) };
  } catch (error) {
    if (error instanceof CannotImport) return { ok: false, reason: error.message };
    throw error;
  }
};
