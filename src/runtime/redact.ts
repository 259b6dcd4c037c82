// Redaction by sensitivity tag, before a payload reaches a trace, an error or a persisted record.
//
// The rule: a copy keeps only what the version's shape describes as safe to show. `secret` fields
// are removed; `pii` fields become a marker with a stable hash; `internal` fields are kept only for
// internal readers. Anything the shape does not describe is not kept either: a key the object does
// not declare is removed (its name may be data), and a value of the wrong kind (a string where an
// object belongs, an enum value outside the enum, a union with an unknown tag) becomes REDACTED in
// its place. Values under a sensitive field are handled whole, whatever they hold.
import { canonicalJson } from "./canonical-json.js";
import { hmacSha256, sha256, toHex, utf8 } from "./sha256.js";
import { jsonEqual } from "./unique.js";
import { own, objectFields, type ShapeFields, type ShapeNode, type VersionShape } from "./shape.js";
import { isRecord } from "./is-record.js";
import { jsonFault } from "./json-value.js";
import { MAX_NODES } from "./max-nodes.js";

export type { VersionShape } from "./shape.js";
export { reaskMessage } from "./reask.js";

/**
 * Objects and arrays nested deeper than this are REDACTED whole: a recursive type's valid payloads
 * stay within it (`maxDepth` is at most 256 levels), and redaction recurses once per level.
 */
const REDACT_DEPTH = 1_024;

/** What stands in for a value the shape does not describe as safe (and for a payload without a shape). */
export const REDACTED = "[redacted]";

/** Who reads the redacted copy: `internal` sinks may see `internal` fields; nobody sees `secret`. */
export interface RedactOptions {
  readonly internal: boolean;
  /**
   * The key of pii hashes (HMAC-SHA-256). Without it a hash is plain SHA-256, which anyone who
   * guesses a value (an e-mail address from a list) can confirm; with a key kept out of the sinks,
   * guessing needs the key. Keep it fixed: the same value gives the same marker only under one key.
   */
  readonly piiKey?: string | Uint8Array;
}

type Hash = (value: unknown) => string;

interface Context {
  readonly shape: VersionShape;
  readonly internal: boolean;
  readonly hash: Hash;
  /** The objects and arrays being copied above this point, so a cyclic value is not followed around. */
  readonly ancestors: Set<object>;
  /** Values redacted so far, shared by every view of the payload: past MAX_NODES each is REDACTED. */
  readonly visits: { count: number };
}


/** `[pii:<16 hex digits>]`: the first 64 bits of the value's (keyed) SHA-256. */
const piiHasher = (key: string | Uint8Array | undefined): Hash => {
  const keyBytes = typeof key === "string" ? utf8(key) : key;
  const digest = keyBytes === undefined ? sha256 : (message: Uint8Array) => hmacSha256(keyBytes, message);
  return (value) => {
    let text: string;
    try {
      text = canonicalJson(value);
    } catch {
      return REDACTED; // more values than a walk may visit: no marker, and nothing of the value
    }
    return `[pii:${toHex(digest(utf8(text))).slice(0, 16)}]`;
  };
};

/** A copy of the object `value` with the declared `fields` redacted; `tag` is a union's tag key, kept as read. */
const redactObject = (value: Record<string, unknown>, fields: ShapeFields, context: Context, tag?: string): Record<string, unknown> => {
  const kept: [string, unknown][] = [];
  for (const key of Object.keys(value)) {
    if (key === tag) {
      kept.push([key, value[key]]);
      continue;
    }
    const field = own(fields, key);
    if (field === undefined || field.sensitivity === "secret") continue;
    if (field.sensitivity === "internal" && !context.internal) continue;
    kept.push([key, field.sensitivity === "pii" ? context.hash(value[key]) : redactNode(value[key], field, context)]);
  }
  // fromEntries defines own properties: a key `__proto__` stays data, never a prototype.
  return Object.fromEntries(kept);
};

/** What every copy keeps alike: equal values as they are, objects by their common keys, anything else REDACTED. */
const agreed = (copies: readonly unknown[]): unknown => {
  const [first, ...rest] = copies;
  if (rest.every((copy) => jsonEqual(copy, first))) return first;
  if (copies.every(Array.isArray)) {
    const lists = copies as readonly unknown[][];
    return lists.every((list) => list.length === lists[0]!.length) ? lists[0]!.map((_, i) => agreed(lists.map((list) => list[i]))) : REDACTED;
  }
  if (!copies.every(isRecord)) return REDACTED;
  const records = copies as readonly Record<string, unknown>[];
  const common = Object.keys(records[0]!).filter((key) => records.every((record) => Object.hasOwn(record, key)));
  return Object.fromEntries(common.map((key) => [key, agreed(records.map((record) => record[key]))]));
};

/**
 * A payload of another contract: redacted as the version its envelope names or, without one (an
 * `envelope: none` contract, a version this build does not know), as every version of the major,
 * keeping only what all of them keep alike. No version's view of the value can leak more.
 */
const redactContract = (value: Record<string, unknown>, versions: { readonly [version: string]: VersionShape }, context: Context): unknown => {
  const declared = value["version"];
  const named = typeof declared === "string" ? own(versions, declared) : undefined;
  const shapes = named ? [named] : Object.values(versions);
  return agreed(shapes.map((shape) => redactObject(value, shape.root, { ...context, shape })));
};

/** Whether `value` is a JSON scalar of `kind` (a number finite: NaN and ±Infinity are none). */
const isScalar = (kind: "string" | "number" | "boolean", value: unknown): boolean => typeof value === kind && (kind !== "number" || Number.isFinite(value));

/** Whether `value` has the JSON type of `node`'s values (a variant of an untagged union it may be of). */
const mayBe = (node: ShapeNode, value: unknown): boolean => {
  switch (node.kind) {
    case "string":
    case "number":
    case "boolean":
      return isScalar(node.kind, value);
    case "enum":
      return typeof value === "string";
    case "list":
    case "tuple":
      return Array.isArray(value);
    case "oneOf":
      return node.variants.some((variant) => mayBe(variant, value));
    default:
      return isRecord(value);
  }
};

const redactNode = (value: unknown, node: ShapeNode, context: Context): unknown => {
  // A value sharing objects is redacted as often as it is reached: the count bounds the work.
  if (++context.visits.count > MAX_NODES) return REDACTED;
  // A json value the field's validator accepts is kept as it is; anything else (past its bounds, a
  // cycle, a nesting a walk would overflow on) is not, nor its keys.
  if (node.kind === "json") return jsonFault(value, node.maxDepth, node.maxBytes) === undefined ? value : REDACTED;
  if (value === null) return null;
  if (node.kind === "oneOf") {
    // The shape does not say which variant a value is of: every one it may be of redacts it, and
    // only what they all keep is kept, so no variant's view leaks more.
    const fitting = node.variants.filter((variant) => mayBe(variant, value));
    return fitting.length === 0 ? REDACTED : agreed(fitting.map((variant) => redactNode(value, variant, context)));
  }
  if (typeof value !== "object") {
    if (node.kind === "enum") return typeof value === "string" && Object.hasOwn(own(context.shape.enums, node.name) ?? {}, value) ? value : REDACTED;
    return (node.kind === "string" || node.kind === "number" || node.kind === "boolean") && isScalar(node.kind, value) ? value : REDACTED;
  }
  // A cycle, or nesting deeper than any payload of a contract may go (a hostile one): not followed.
  if (context.ancestors.has(value) || context.ancestors.size >= REDACT_DEPTH) return REDACTED;
  context.ancestors.add(value);
  const copy = Array.isArray(value) ? redactList(value, node, context) : redactRecord(value as Record<string, unknown>, node, context);
  context.ancestors.delete(value);
  return copy;
};

/** A list's items, no more than its maxItems: past them the payload failed anyway, and a record holds no more than the contract allows. */
const redactList = (value: readonly unknown[], node: ShapeNode, context: Context): unknown => {
  if (node.kind === "tuple") return value.length === node.items.length ? node.items.map((item, i) => redactNode(value[i], item, context)) : REDACTED;
  if (node.kind !== "list") return REDACTED;
  const n = node.maxItems === undefined ? value.length : Math.min(value.length, node.maxItems);
  return Array.from({ length: n }, (_, i) => redactNode(value[i], node.of, context));
};

const redactRecord = (value: Record<string, unknown>, node: ShapeNode, context: Context): unknown => {
  switch (node.kind) {
    case "map":
      // A key may be data: unless the contract declares the keys names, each becomes its pii
      // marker (stable, so equal keys stay equal across records, and distinct ones distinct).
      return Object.fromEntries(Object.keys(value).map((key) => [node.keysVisible ? key : context.hash(key), redactNode(value[key], node.of, context)]));
    case "union": {
      const tag = value[node.tag];
      const variant = typeof tag === "string" ? own(node.variants, tag) : undefined;
      const fields = variant && objectFields(variant, context.shape);
      return fields ? redactObject(value, fields, context, node.tag) : REDACTED;
    }
    case "contract":
      return redactContract(value, node.versions, context);
    default: {
      const fields = objectFields(node, context.shape);
      return fields ? redactObject(value, fields, context) : REDACTED;
    }
  }
};

/**
 * A deep copy of `value` (a payload of the version `shape` describes) with `secret` values
 * removed, `pii` values replaced by a marker with a stable hash, and `internal` values kept only
 * for internal readers. What the shape does not describe is removed (undeclared keys) or replaced
 * by REDACTED (values of the wrong kind), so an invalid payload leaks nothing either. Without a
 * shape, nothing of the value is kept.
 */
export const redact = (value: unknown, shape: VersionShape | undefined, options: RedactOptions): unknown =>
  shape === undefined
    ? REDACTED
    : redactNode(value, { kind: "object", fields: shape.root }, { shape, internal: options.internal, hash: piiHasher(options.piiKey), ancestors: new Set(), visits: { count: 0 } });
