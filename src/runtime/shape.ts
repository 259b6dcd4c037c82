// What generated code tells the runtime about one version's payloads, for redaction and re-ask
// messages: where each field sits, its sensitivity tag, and each enum's values with their meanings.
// Nothing else of the schema (bounds, patterns) is here, the validator owns that, but a list's
// maxItems: a record keeps no more of a list than the contract allows.

/** A field's `sensitivity` in the IDL. */
export type Sensitivity = "pii" | "secret" | "internal";

/**
 * The kind of value at one position. Scalars are named by their JSON type; a `const` is the type of
 * its value. Named types and enums are looked up by name in the version's shape (so recursion is
 * fine); `contract` is a payload of another contract, any of the versions it lists.
 */
export type ShapeNode =
  | { readonly kind: "string" | "number" | "boolean" | "null" }
  | { readonly kind: "enum"; readonly name: string }
  | { readonly kind: "object"; readonly fields: ShapeFields }
  | { readonly kind: "named"; readonly name: string }
  | { readonly kind: "list"; readonly of: ShapeNode; readonly maxItems?: number }
  /** Any JSON value: kept whole by redaction when within its bounds (else replaced whole), its keys (data) masked in paths. */
  | { readonly kind: "json"; readonly maxDepth?: number; readonly maxBytes?: number }
  | { readonly kind: "tuple"; readonly items: readonly ShapeNode[] }
  /** `keysVisible`: the IDL's `keys: { sensitivity: none }`; without it a map's keys are masked everywhere. */
  | { readonly kind: "map"; readonly of: ShapeNode; readonly keysVisible?: true }
  | {
      readonly kind: "union";
      readonly tag: string;
      /** Tag value → the variant's fields (an `object` or a `named` node), without the tag field. */
      readonly variants: { readonly [value: string]: ShapeNode };
    }
  /** An untagged union: a value is of exactly one of the variants. */
  | { readonly kind: "oneOf"; readonly variants: readonly ShapeNode[] }
  | { readonly kind: "contract"; readonly versions: { readonly [version: string]: VersionShape } };

/** A field: the value's node and, when the IDL tags it, its sensitivity. */
export type FieldShape = ShapeNode & { readonly sensitivity?: Sensitivity };

/** An object's declared fields by name. */
export interface ShapeFields {
  readonly [name: string]: FieldShape;
}

/** One version, as its generated `shape.ts` declares it. */
export interface VersionShape {
  /** The payload's fields, envelope included. */
  readonly root: ShapeFields;
  /** Named object types by name. */
  readonly types: { readonly [name: string]: ShapeFields };
  /** Enums by name: each value and its meaning, in declaration order. */
  readonly enums: { readonly [name: string]: { readonly [value: string]: string } };
  /** The `fallback` of each enum that has one: what a reader of this version reads a value it does not know as (a newer minor's). */
  readonly fallbacks?: { readonly [name: string]: string };
  /**
   * Set by treaty when every path the version's validator reports is made of declared fields and
   * list items but for the key of an `unknown` issue (its last segment): the runtime then masks
   * an issue's path without walking the shape (`maskIssuePath`). Absent: always walked.
   */
  readonly plain?: true;
}

/** `record[key]` when it is the record's own property (`constructor`, `__proto__` are not inherited ones here). */
export const own = <T>(record: { readonly [key: string]: T }, key: string): T | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);

/**
 * The fields of an object position: an inline object, a named type, or a union variant. Undefined
 * for any other node, or a name the shape does not define.
 */
export const objectFields = (node: ShapeNode, shape: VersionShape): ShapeFields | undefined =>
  node.kind === "object" ? node.fields : node.kind === "named" ? own(shape.types, node.name) : undefined;
