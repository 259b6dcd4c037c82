// The shape accepting what both of two shapes accept: how `allOf`, and `type` beside `anyOf`/`oneOf`
// or `$ref`, become one shape. Combinations the model cannot express are refused, never guessed.
import { patternIncludes } from "../ir/pattern-language.js";
import { accepts, isMultiple, undeclaredKeyShape } from "./accepts.js";
import {
  ANY,
  NEVER,
  type ArrayShape,
  type Bound,
  type NumberShape,
  type ObjectShape,
  type Openness,
  type Property,
  type Shape,
  type StringShape,
} from "./shape.js";

/** Thrown while importing a schema the model cannot represent; the message says why. */
export class CannotImport extends Error {}

const NO_PENDING: ReadonlySet<Shape> = new Set();

/** Drops keys whose value is undefined, so shapes compare and print without noise. */
export const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

const acceptsNull = (shape: Shape): boolean => shape.nullable === true || shape.kind === "any" || shape.kind === "null";

/** The shape without what applies to every kind (nullability, `not`, conditionals, notes). */
const kindOnly = (shape: Shape): Shape =>
  defined({ ...shape, nullable: undefined, not: undefined, conditional: undefined, description: undefined, loc: undefined });

const same = <T>(what: string, a: T | undefined, b: T | undefined): T | undefined => {
  if (a === undefined) return b;
  if (b === undefined || a === b) return a;
  throw new CannotImport(`two different ${what}s apply to the same value`);
};

/** The narrower of two patterns, when one accepts every string the other does (ir/pattern-language.ts). */
const narrowerPattern = (a: string | undefined, b: string | undefined): string | undefined => {
  if (a === undefined || b === undefined || a === b) return a ?? b;
  if (patternIncludes(a, b)?.holds === true) return b;
  if (patternIncludes(b, a)?.holds === true) return a;
  throw new CannotImport("two patterns neither of which includes the other apply to the same string");
};

const larger = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);

const smaller = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);

/** The stricter of two lower bounds (`upper`: of two upper bounds). */
export const stricterBound = (a: Bound | undefined, b: Bound | undefined, upper: boolean): Bound | undefined => {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a.value === b.value) return a.exclusive ? a : b;
  return (a.value > b.value) !== upper ? a : b;
};

const meetStrings = (a: StringShape, b: StringShape): StringShape =>
  defined({
    kind: "string",
    minLength: larger(a.minLength, b.minLength),
    maxLength: smaller(a.maxLength, b.maxLength),
    pattern: narrowerPattern(a.pattern, b.pattern),
    format: same("format", a.format, b.format),
    contentEncoding: same("contentEncoding", a.contentEncoding, b.contentEncoding),
    contentMediaType: same("contentMediaType", a.contentMediaType, b.contentMediaType),
    scheme: same("ref scheme", a.scheme, b.scheme),
  });

const meetMultiples = (a: number | undefined, b: number | undefined): number | undefined => {
  if (a === undefined || b === undefined) return a ?? b;
  if (isMultiple(a, b)) return a;
  if (isMultiple(b, a)) return b;
  throw new CannotImport(`multipleOf ${a} and multipleOf ${b} apply to the same number`);
};

const meetNumbers = (a: NumberShape, b: NumberShape): NumberShape =>
  defined({
    kind: "number",
    integer: a.integer || b.integer,
    lower: stricterBound(a.lower, b.lower, false),
    upper: stricterBound(a.upper, b.upper, true),
    multipleOf: meetMultiples(a.multipleOf, b.multipleOf),
  });

const meetArrays = (a: ArrayShape, b: ArrayShape, pending: ReadonlySet<Shape>): ArrayShape => {
  const length = Math.max(a.prefix?.length ?? 0, b.prefix?.length ?? 0);
  const prefix = Array.from({ length }, (_, i) => intersect(a.prefix?.[i] ?? a.items, b.prefix?.[i] ?? b.items, pending));
  return defined({
    kind: "array",
    prefix: length > 0 ? prefix : undefined,
    items: intersect(a.items, b.items, pending),
    minItems: larger(a.minItems, b.minItems),
    maxItems: smaller(a.maxItems, b.maxItems),
    unique: a.unique || b.unique ? true : undefined,
    contains: same("contains", a.contains, b.contains),
  });
};

const openShape = (openness: Openness): Shape | undefined =>
  openness.kind === "closed" ? undefined : openness.kind === "strip" ? ANY : openness.shape;

const meetOpenness = (a: Openness, b: Openness, pending: ReadonlySet<Shape>): Openness => {
  const sa = openShape(a);
  const sb = openShape(b);
  return sa === undefined || sb === undefined ? { kind: "closed" } : { kind: "open", shape: intersect(sa, sb, pending) };
};

const meetObjects = (a: ObjectShape, b: ObjectShape, pending: ReadonlySet<Shape>): ObjectShape => {
  const names = [...new Set([...a.properties, ...b.properties].map((p) => p.name))];
  const properties = names.map((name): Property => {
    const pa = a.properties.find((p) => p.name === name);
    const pb = b.properties.find((p) => p.name === name);
    const shapeA = pa?.shape ?? undeclaredKeyShape(a, name, true) ?? NEVER;
    const shapeB = pb?.shape ?? undeclaredKeyShape(b, name, true) ?? NEVER;
    return { name, required: (pa?.required ?? false) || (pb?.required ?? false), shape: intersect(shapeA, shapeB, pending) };
  });
  const patterns = [...(a.patterns ?? [])];
  for (const p of b.patterns ?? []) {
    const index = patterns.findIndex((q) => q.pattern === p.pattern);
    if (index < 0) patterns.push(p);
    else patterns[index] = { pattern: p.pattern, shape: intersect(patterns[index]!.shape, p.shape, pending) };
  }
  const names2 = a.propertyNames && b.propertyNames ? intersect(a.propertyNames, b.propertyNames, pending) : (a.propertyNames ?? b.propertyNames);
  const concat = <T>(x: readonly T[] | undefined, y: readonly T[] | undefined): readonly T[] | undefined =>
    x || y ? [...(x ?? []), ...(y ?? [])] : undefined;
  return defined({
    kind: "object",
    properties,
    extra: meetOpenness(a.extra, b.extra, pending),
    patterns: patterns.length > 0 ? patterns : undefined,
    propertyNames: names2,
    minProperties: larger(a.minProperties, b.minProperties),
    maxProperties: smaller(a.maxProperties, b.maxProperties),
    dependentRequired: concat(a.dependentRequired, b.dependentRequired),
    dependentSchemas: concat(a.dependentSchemas, b.dependentSchemas),
    rules: concat(a.rules, b.rules),
  });
};

/** Intersects the kind-specific parts (`a` and `b` carry no nullability, `not` or conditional). */
const meetKinds = (a: Shape, b: Shape, pending: ReadonlySet<Shape>): Shape => {
  if (a.kind === "any") return b;
  if (b.kind === "any") return a;
  if (a.kind === "never" || b.kind === "never") return NEVER;
  if (a.kind === "enum" || b.kind === "enum") {
    const [values, other] = a.kind === "enum" ? [a, b] : [b as Extract<Shape, { kind: "enum" }>, a];
    return { ...values, values: values.values.filter((member) => accepts(other, member.value)) };
  }
  if (a.kind === "union" || b.kind === "union") {
    const [union, other] = a.kind === "union" ? [a, b] : [b as Extract<Shape, { kind: "union" }>, a];
    const variants = union.variants
      .map((variant) => ({ ...variant, shape: intersect(variant.shape, other, pending) }))
      .filter((variant) => variant.shape.kind !== "never");
    if (variants.length === 0) return NEVER;
    return variants.length === 1 ? variants[0]!.shape : { ...union, variants };
  }
  if (a.kind !== b.kind) return NEVER;
  switch (a.kind) {
    case "string":
      return meetStrings(a, b as StringShape);
    case "number":
      return meetNumbers(a, b as NumberShape);
    case "array":
      return meetArrays(a, b as ArrayShape, pending);
    case "object":
      return meetObjects(a, b as ObjectShape, pending);
    case "contract":
      throw new CannotImport("two contract references apply to the same value");
    default:
      return a;
  }
};

const meetNots = (a: Shape | undefined, b: Shape | undefined): Shape | undefined =>
  a && b ? { kind: "union", exclusive: false, variants: [{ shape: a }, { shape: b }] } : (a ?? b);

const isPlainAny = (shape: Shape): boolean =>
  shape.kind === "any" && !shape.not && !shape.conditional && shape.description === undefined;

/** What both accept. `pending` holds shapes of `$ref`s still being imported, which cannot be read yet. */
export const intersect = (a: Shape, b: Shape, pending: ReadonlySet<Shape> = NO_PENDING): Shape => {
  // A `$ref` still being imported is a placeholder that reads as any: it is no any to drop.
  if (a === b || (isPlainAny(b) && !pending.has(b))) return a;
  if (isPlainAny(a) && !pending.has(a)) return b;
  if (pending.has(a) || pending.has(b)) throw new CannotImport("a recursive $ref is combined with other keywords");
  if (a.conditional && b.conditional && a.conditional !== b.conditional) {
    throw new CannotImport("two if/then/else apply to the same value");
  }
  let kinds = meetKinds(kindOnly(a), kindOnly(b), pending);
  const nullable = acceptsNull(a) && acceptsNull(b);
  if (kinds.kind === "never" && nullable) kinds = { kind: "null" };
  return defined({
    ...kinds,
    nullable: nullable && kinds.kind !== "any" && kinds.kind !== "null" ? true : undefined,
    not: meetNots(a.not, b.not),
    conditional: a.conditional ?? b.conditional,
    description: a.description ?? b.description,
    loc: a.loc ?? b.loc,
  });
};
