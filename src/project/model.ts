import type { VariantSelector } from "../ir/one-of-variants.js";
import type { JsonValue, LlmProvider } from "../ir/model.js";

/** A JSON Schema as a plain object; key order is the order it is printed in. */
export type JsonSchema = { [key: string]: JsonValue };

/** The JSON Schema keywords treaty's types use, each of which a provider may or may not take. */
export type Keyword =
  | "minLength"
  | "maxLength"
  | "pattern"
  | "minimum"
  | "maximum"
  | "exclusiveMinimum"
  | "exclusiveMaximum"
  | "multipleOf"
  | "maxItems"
  | "uniqueItems"
  /** A map's `keys: { pattern }` on an open object. */
  | "propertyNames"
  /** A tuple's positions (2020-12); without it a tuple is an array of any of its item types. */
  | "prefixItems";

/**
 * What one provider accepts, as data: every projection decision reads this table, so a provider's
 * documented subset is stated once, in `limits/<provider>.ts`, with the pages it comes from.
 */
export interface ProviderLimits {
  readonly provider: LlmProvider;
  /** The name rule of the tool or response format, when the projection carries a name. */
  readonly name?: { readonly pattern: RegExp; readonly rule: string };
  /** Every property must be listed in `required`: optional fields become `anyOf [T, null]`. */
  readonly allRequired: boolean;
  /** Every object must say `additionalProperties: false`, so a map (open keys) cannot be expressed. */
  readonly closedObjects: boolean;
  /** `const` is understood; otherwise a constant is written as a one-value `enum`. */
  readonly const: boolean;
  /** Enum values as `anyOf [{ const, description }]`; otherwise `enum` with the meanings in the description. */
  readonly enumMeanings: "anyOf" | "description";
  /** The keywords taken; the others go to the ledger. */
  readonly keywords: ReadonlySet<Keyword>;
  /** `minItems` taken up to this value (Anthropic: 0 or 1); above it, it goes to the ledger. */
  readonly maxMinItems: number;
  readonly formats: ReadonlySet<string>;
  /** Limits on the whole schema, each a compile-time diagnostic when crossed. */
  readonly maxDepth?: number;
  readonly maxProperties?: number;
  /** Characters of property names, enum values and constants together. */
  readonly maxSchemaChars?: number;
  /** Enum values across the schema. */
  readonly maxEnumValues?: number;
  /** One enum with more than `values` values may hold at most `chars` characters of values. */
  readonly largeEnum?: { readonly values: number; readonly chars: number };
  /** A recursive type may be written once in `$defs` and referred to by `$ref`; otherwise it is a limit crossed. */
  readonly recursiveDefs?: true;
}

/** A constraint of the contract the projection does not carry: the provider will not enforce it. */
export interface LedgerEntry {
  /** JSON pointer into the payload; `*` stands for any list item or map key. */
  readonly path: string;
  /** The issue code the contract's validator reports when the constraint fails (`maxLength`, `rule.before`, ...). */
  readonly constraint: string;
  readonly value?: JsonValue;
  /** The constraint in words, as the projection's description tells it to the model. */
  readonly words: string;
}

/**
 * How to turn a provider's reply back into the contract's value, as a tree the emitter prints as
 * straight-line code: `widened` fields lose a null, maps written as entries become objects again,
 * the others are walked into.
 */
export type NullPlan =
  | { readonly kind: "object"; readonly fields: readonly { readonly name: string; readonly widened: boolean; readonly inner?: NullPlan }[] }
  | { readonly kind: "items"; readonly inner: NullPlan }
  /**
   * A tuple: each listed position walked into with its own plan; `object`: written as an object
   * keyed "0", "1", ... (a provider without `prefixItems`), which becomes the array again.
   */
  | { readonly kind: "positions"; readonly object: boolean; readonly length: number; readonly positions: readonly { readonly index: number; readonly inner: NullPlan }[] }
  | { readonly kind: "values"; readonly inner: NullPlan }
  /** A map written as a list of `{ key, value }` entries (a closed-object provider cannot say open keys). */
  | { readonly kind: "entries"; readonly inner?: NullPlan }
  /** Variants told apart by the constant at `tag` (a union's tag, a contract's `version`). */
  | { readonly kind: "tagged"; readonly tag: string; readonly variants: readonly { readonly value: string | number | boolean; readonly inner: NullPlan }[] }
  /** An untagged union's variants that have a plan, each selected as the provider writes it (their selectors exclude each other). */
  | { readonly kind: "select"; readonly variants: readonly { readonly selector: VariantSelector; readonly inner: NullPlan }[] }
  /** Versions of a contract without an envelope: nothing tells them apart, so each one's plan is applied. */
  | { readonly kind: "each"; readonly plans: readonly NullPlan[] };

/** One provider's projection of one contract version. */
export interface Projection {
  readonly provider: LlmProvider;
  /** The name of the tool or response format. */
  readonly name: string;
  readonly description?: string;
  readonly schema: JsonSchema;
  readonly ledger: readonly LedgerEntry[];
  /** Pointers of the optional fields written as `anyOf [T, null]`; a null there means absent. */
  readonly widened: readonly string[];
  /** Present when a reply can differ from the contract's value: a field widened, a map written as entries. */
  readonly nulls?: NullPlan;
}
