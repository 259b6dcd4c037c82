// Whether a shape accepts one concrete value: how the engine judges a fixed set of values (an enum,
// a const) against an open type, and how intersections filter enum values.
import type { JsonValue } from "../ir/model.js";
import { FORMAT_TESTS } from "../runtime/formats.js";
import { jsonFault } from "../runtime/json-value.js";
import { canonicalJson, type ArrayShape, type Bound, type NumberShape, type ObjectShape, type Shape, type StringShape } from "./shape.js";

const codePoints = (s: string): number => [...s].length;

const withinLower = (value: number, bound: Bound | undefined): boolean =>
  bound === undefined || (bound.exclusive ? value > bound.value : value >= bound.value);

const withinUpper = (value: number, bound: Bound | undefined): boolean =>
  bound === undefined || (bound.exclusive ? value < bound.value : value <= bound.value);

/** Float-tolerant: 0.3 is a multiple of 0.1. */
export const isMultiple = (value: number, of: number): boolean => {
  const quotient = value / of;
  return Math.abs(quotient - Math.round(quotient)) < 1e-9;
};

const acceptsNumber = (shape: NumberShape, value: number): boolean =>
  (!shape.integer || Number.isInteger(value)) &&
  withinLower(value, shape.lower) &&
  withinUpper(value, shape.upper) &&
  (shape.multipleOf === undefined || isMultiple(value, shape.multipleOf));

/** A pattern that is not a valid ECMAScript regex matches nothing we could prove. */
const matches = (pattern: string, value: string): boolean => {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    return false;
  }
};

/** A format treaty knows, tested as its validators (and ajv-formats) test it; any other is an annotation. */
const matchesFormat = (format: string, value: string): boolean => !Object.hasOwn(FORMAT_TESTS, format) || FORMAT_TESTS[format as keyof typeof FORMAT_TESTS](value);

const acceptsString = (shape: StringShape, value: string): boolean =>
  (shape.minLength === undefined || codePoints(value) >= shape.minLength) &&
  (shape.maxLength === undefined || codePoints(value) <= shape.maxLength) &&
  (shape.pattern === undefined || matches(shape.pattern, value)) &&
  (shape.format === undefined || matchesFormat(shape.format, value)) &&
  (shape.scheme === undefined || value.startsWith(`${shape.scheme}://`));

const acceptsArray = (shape: ArrayShape, value: readonly JsonValue[]): boolean => {
  const prefix = shape.prefix ?? [];
  const unique = new Set(value.map(canonicalJson)).size === value.length;
  return (
    value.every((item, i) => accepts(prefix[i] ?? shape.items, item)) &&
    (shape.minItems === undefined || value.length >= shape.minItems) &&
    (shape.maxItems === undefined || value.length <= shape.maxItems) &&
    (!shape.unique || unique) &&
    (shape.contains === undefined || value.some((item) => accepts(shape.contains!, item)))
  );
};

/** The shape an undeclared key's value must have, or undefined when the key is rejected. */
export const undeclaredKeyShape = (shape: ObjectShape, key: string, reader: boolean): Shape | undefined => {
  const pattern = shape.patterns?.find((p) => matches(p.pattern, key));
  if (pattern) return pattern.shape;
  if (shape.extra.kind === "open") return shape.extra.shape;
  return shape.extra.kind === "strip" && reader ? { kind: "any" } : undefined;
};

const acceptsObject = (shape: ObjectShape, value: { readonly [key: string]: JsonValue }): boolean => {
  const keys = Object.keys(value);
  const declared = new Map(shape.properties.map((p) => [p.name, p]));
  return (
    shape.properties.every((p) => (p.name in value ? accepts(p.shape, value[p.name]!) : !p.required)) &&
    keys.every((key) => {
      if (declared.has(key)) return true;
      const extra = undeclaredKeyShape(shape, key, true);
      return extra !== undefined && accepts(extra, value[key]!);
    }) &&
    (shape.propertyNames === undefined || keys.every((key) => accepts(shape.propertyNames!, key))) &&
    (shape.minProperties === undefined || keys.length >= shape.minProperties) &&
    (shape.maxProperties === undefined || keys.length <= shape.maxProperties) &&
    (shape.dependentRequired ?? []).every((d) => !(d.key in value) || d.names.every((name) => name in value)) &&
    (shape.dependentSchemas ?? []).every((d) => !(d.key in value) || accepts(d.shape, value))
  );
};

const acceptsKind = (shape: Shape, value: JsonValue): boolean => {
  switch (shape.kind) {
    case "any":
      return (shape.maxDepth === undefined && shape.maxBytes === undefined) || jsonFault(value, shape.maxDepth, shape.maxBytes) === undefined;
    case "never":
    case "contract":
      // A contract reference's versions are not in the shape; no value is proven to fit.
      return false;
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && acceptsNumber(shape, value);
    case "string":
      return typeof value === "string" && acceptsString(shape, value);
    case "array":
      return Array.isArray(value) && acceptsArray(shape, value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value) && acceptsObject(shape, value);
    case "enum":
      return shape.values.some((member) => canonicalJson(member.value) === canonicalJson(value));
    case "union": {
      const matching = shape.variants.filter((variant) => accepts(variant.shape, value)).length;
      return shape.exclusive ? matching === 1 : matching > 0;
    }
  }
};

export const accepts = (shape: Shape, value: JsonValue): boolean => {
  const base = (value === null && shape.nullable === true) || acceptsKind(shape, value);
  if (!base) return false;
  if (shape.not && accepts(shape.not, value)) return false;
  const conditional = shape.conditional;
  if (!conditional) return true;
  const branch = accepts(conditional.if, value) ? conditional.then : conditional.else;
  return branch === undefined || accepts(branch, value);
};
