// The structural model the compatibility engine compares: what values a version accepts, normalized
// so that a contract version (IR) and a JSON Schema land in the same terms. Two importers build it
// (`shapeOfVersion`, `shapeOfJsonSchema`); `compare` reads only this.
import type { JsonValue, SourceLocation } from "../ir/model.js";

/** A numeric bound; `exclusive` bounds exclude their value. */
export interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
}

/** `if`/`then`/`else`: a missing branch accepts everything. */
export interface Conditional {
  readonly if: Shape;
  readonly then?: Shape;
  readonly else?: Shape;
}

/** What every shape may carry besides its kind's constraints. */
interface ShapeBase {
  /** Null is accepted too (the IR's `nullable`, JSON Schema's `"null"` among other types). */
  readonly nullable?: boolean;
  readonly description?: string;
  /** Values matching this are rejected (JSON Schema `not`; several `not`s are one `not` of their union). */
  readonly not?: Shape;
  readonly conditional?: Conditional;
  /** Where this shape is written (a field, a variant, a version); absent for JSON Schema input. */
  readonly loc?: SourceLocation;
}

export interface AnyShape extends ShapeBase {
  readonly kind: "any";
  /** The IR's `json` bounds, which JSON Schema cannot state: levels of arrays and objects, UTF-8 bytes as JSON. */
  readonly maxDepth?: number;
  readonly maxBytes?: number;
}

/** Accepts nothing (JSON Schema `false`). */
export interface NeverShape extends ShapeBase {
  readonly kind: "never";
}

export interface NullShape extends ShapeBase {
  readonly kind: "null";
}

export interface BooleanShape extends ShapeBase {
  readonly kind: "boolean";
}

export interface NumberShape extends ShapeBase {
  readonly kind: "number";
  readonly integer: boolean;
  readonly lower?: Bound;
  readonly upper?: Bound;
  readonly multipleOf?: number;
}

export interface StringShape extends ShapeBase {
  readonly kind: "string";
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly contentEncoding?: string;
  readonly contentMediaType?: string;
  /** `ref<scheme>`: the string is `scheme://...` (the IR's artifact references). */
  readonly scheme?: string;
}

export interface ArrayShape extends ShapeBase {
  readonly kind: "array";
  /** Positional item shapes (tuples); items past them follow `items`. */
  readonly prefix?: readonly Shape[];
  readonly items: Shape;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly unique?: boolean;
  /** At least one item matches this. */
  readonly contains?: Shape;
}

/**
 * What an object does with keys it does not declare.
 * closed: writers never write them, readers reject them (`unknown_fields: reject`, `additionalProperties: false`);
 * strip: writers never write them, readers ignore them (`unknown_fields: strip`);
 * open: writers may write them with values of `shape`, readers accept those (JSON Schema's default: any;
 *   `unknown_fields: keep`, with `additional`'s shape).
 */
export type Openness =
  | { readonly kind: "closed" }
  | { readonly kind: "strip" }
  | { readonly kind: "open"; readonly shape: Shape };

export interface Property {
  readonly name: string;
  readonly required: boolean;
  readonly shape: Shape;
}

export interface PatternProperty {
  readonly pattern: string;
  readonly shape: Shape;
}

export interface ObjectShape extends ShapeBase {
  readonly kind: "object";
  readonly properties: readonly Property[];
  readonly extra: Openness;
  /** Undeclared keys matching a pattern take its shape instead of `extra`'s. */
  readonly patterns?: readonly PatternProperty[];
  /** Every key (a string) matches this. */
  readonly propertyNames?: Shape;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  /** When `key` is present, `names` must be too. */
  readonly dependentRequired?: readonly { readonly key: string; readonly names: readonly string[] }[];
  /** When `key` is present, the object also matches `shape`. */
  readonly dependentSchemas?: readonly { readonly key: string; readonly shape: Shape }[];
  /** The IR's semantic rules (`before`, `exclusive`, `requires`) of the payload. */
  readonly rules?: readonly ShapeRule[];
}

/** A semantic rule over fields (dotted paths from the payload root). */
export interface ShapeRule {
  /** One canonical line naming the rule, also its identity. */
  readonly text: string;
  /** The rule can fail only when at least `trigger` of `fields` are present. */
  readonly fields: readonly string[];
  readonly trigger: number;
}

export interface EnumMember {
  readonly value: JsonValue;
  /** The IR's meaning of the value. */
  readonly description?: string;
  readonly loc?: SourceLocation;
}

/** A fixed set of values: an IR enum, a `const`, JSON Schema `enum`/`const`. */
export interface EnumShape extends ShapeBase {
  readonly kind: "enum";
  /** The IR enum's name, to find its declared `enum` changes. */
  readonly name?: string;
  readonly values: readonly EnumMember[];
  /** A reader that meets a value it does not know reads this one. */
  readonly fallback?: string;
}

export interface Variant {
  /** The tag value selecting this variant, in a discriminated union. */
  readonly key?: string;
  readonly shape: Shape;
}

export interface UnionShape extends ShapeBase {
  readonly kind: "union";
  readonly variants: readonly Variant[];
  /** The property whose constant value selects the variant (every variant object declares it). */
  readonly tag?: string;
  /** Exactly one variant must match (`oneOf`) rather than at least one (`anyOf`). */
  readonly exclusive: boolean;
  /** No value is of two variants (a contract's union, proved by `check`), so exclusivity changes nothing. */
  readonly disjoint?: true;
}

/** `other.contract@MAJOR`: any version of that major; its own versions are checked on their own. */
export interface ContractRefShape extends ShapeBase {
  readonly kind: "contract";
  readonly contract: string;
  readonly major: number;
}

export type Shape =
  | AnyShape
  | NeverShape
  | NullShape
  | BooleanShape
  | NumberShape
  | StringShape
  | ArrayShape
  | ObjectShape
  | EnumShape
  | UnionShape
  | ContractRefShape;

export const ANY: AnyShape = { kind: "any" };
export const NEVER: NeverShape = { kind: "never" };

const jsonSort = (value: JsonValue): string => {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
};

/** The JSON type a shape's values have, to pair union variants of the same sort; "mixed" when several. */
export const sortOf = (shape: Shape): string => {
  if (shape.kind !== "enum") return shape.kind;
  const sorts = new Set(shape.values.map((member) => jsonSort(member.value)));
  return sorts.size === 1 ? [...sorts][0]! : "mixed";
};

/** The variants of a union, or the shape itself as the only one. */
export const variantsOf = (shape: Shape): readonly Variant[] => (shape.kind === "union" ? shape.variants : [{ shape }]);

/** A stable text for a JSON value: keys sorted, so equal values print alike. */
export { canonicalJson } from "../runtime/canonical-json.js";
