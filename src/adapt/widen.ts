// Whether every value of one scalar type is a value of another: a retype or a constrain that
// widens needs no code, one that narrows needs a person.
import { patternIncludes } from "../ir/pattern-language.js";
import type { ConstType, JsonType, ListType, NumericType, StringType, TypeNode } from "../ir/model.js";

const within = (inner: number | undefined, outer: number | undefined, compare: (a: number, b: number) => boolean): boolean =>
  outer === undefined || (inner !== undefined && compare(inner, outer));

/** A bound as (value, exclusive); undefined is unbounded. */
type Bound = readonly [number, boolean] | undefined;

const lowerBound = (t: NumericType): Bound => {
  const candidates: [number, boolean][] = [];
  if (t.min !== undefined) candidates.push([t.min, false]);
  if (t.exclusiveMin !== undefined) candidates.push([t.exclusiveMin, true]);
  return candidates.sort((a, b) => b[0] - a[0] || Number(b[1]) - Number(a[1]))[0];
};

const upperBound = (t: NumericType): Bound => {
  const candidates: [number, boolean][] = [];
  if (t.max !== undefined) candidates.push([t.max, false]);
  if (t.exclusiveMax !== undefined) candidates.push([t.exclusiveMax, true]);
  return candidates.sort((a, b) => a[0] - b[0] || Number(b[1]) - Number(a[1]))[0];
};

/** `outer` lets through everything `inner` does, on the side `below` (lower bounds) or above. */
const boundWidens = (inner: Bound, outer: Bound, below: boolean): boolean => {
  if (outer === undefined) return true;
  if (inner === undefined) return false;
  const [i, iExclusive] = inner;
  const [o, oExclusive] = outer;
  if (i !== o) return below ? o < i : o > i;
  return !oExclusive || iExclusive;
};

const numericWidens = (from: NumericType, to: NumericType): boolean =>
  (to.kind === "number" || from.kind === "int") &&
  boundWidens(lowerBound(from), lowerBound(to), true) &&
  boundWidens(upperBound(from), upperBound(to), false) &&
  (to.multipleOf === undefined || (from.multipleOf !== undefined && Number.isInteger(from.multipleOf / to.multipleOf)));

const stringWidens = (from: StringType, to: StringType): boolean =>
  within(from.minLength ?? 0, to.minLength ?? 0, (a, b) => a >= b) &&
  within(from.maxLength, to.maxLength, (a, b) => a <= b) &&
  patternIncludes(to.pattern, from.pattern)?.holds === true &&
  (to.format === undefined || to.format === from.format);

const unconstrained = (t: StringType): boolean =>
  t.minLength === undefined && t.maxLength === undefined && t.pattern === undefined && t.format === undefined;

const codePoints = (s: string): number => [...s].length;

/** A string `to` accepts `value`. */
export const stringAccepts = (to: StringType, value: string): boolean =>
  (to.minLength === undefined || codePoints(value) >= to.minLength) &&
  (to.maxLength === undefined || codePoints(value) <= to.maxLength) &&
  (to.pattern === undefined || new RegExp(to.pattern, "u").test(value)) &&
  to.format === undefined;

const constWidens = (from: ConstType, to: TypeNode): boolean => {
  const value = from.value;
  switch (to.kind) {
    case "const":
      return to.value === value;
    case "string":
      return typeof value === "string" && stringAccepts(to, value);
    case "int":
    case "number":
      return (
        typeof value === "number" &&
        numericWidens({ kind: Number.isInteger(value) ? "int" : "number", min: value, max: value }, to)
      );
    case "bool":
      return typeof value === "boolean";
    default:
      return false;
  }
};

/** List constraints of `to` let through every list `from` allows (items aside). */
export const listBoundsWiden = (from: ListType, to: ListType): boolean =>
  (to.minItems ?? 0) <= (from.minItems ?? 0) &&
  (to.maxItems === undefined || (from.maxItems !== undefined && from.maxItems <= to.maxItems)) &&
  (!to.unique || from.unique === true);

/**
 * Every value of `from` is a value of the `json` type `to`: any value is JSON, so only `to`'s
 * bounds can refuse one, and only a `json` within them is known to fit them.
 */
export const jsonWidens = (from: TypeNode, to: JsonType): boolean =>
  from.kind === "json"
    ? within(from.maxDepth, to.maxDepth, (a, b) => a <= b) && within(from.maxBytes, to.maxBytes, (a, b) => a <= b)
    : to.maxDepth === undefined && to.maxBytes === undefined;

/** Every value of the scalar `from` is a value of `to`; undefined when `from` is not a scalar. */
export const scalarWidens = (from: TypeNode, to: TypeNode): boolean | undefined => {
  switch (from.kind) {
    case "string":
      if (to.kind === "timestamp") return from.format === "date-time";
      return to.kind === "string" && stringWidens(from, to);
    case "int":
    case "number":
      return (to.kind === "int" || to.kind === "number") && numericWidens(from, to);
    case "bool":
      return to.kind === "bool";
    case "timestamp":
      if (to.kind === "timestamp") return true;
      return to.kind === "string" && stringWidens({ kind: "string", format: "date-time" }, to);
    case "ref":
      if (to.kind === "ref") return to.scheme === from.scheme;
      return to.kind === "string" && unconstrained(to);
    case "const":
      return constWidens(from, to);
    default:
      return undefined;
  }
};
