// What an enum's `fallback` promises a reader: a newer minor's payload read as the older known minor
// (`unknown_fields: strip` or `keep`) reads each value of such an enum the older minor does not
// know as the fallback, before the older validator judges it. Walked along the version's shape, so
// it costs what the payload holds where enums are; a value of a kind the shape does not expect is
// left for the validator, which reports it.
import type { ShapeFields, ShapeNode, VersionShape } from "./shape.js";
import { escapePointer } from "./issue.js";
import { isRecord } from "./is-record.js";
import { rebuildRecord } from "./rebuild-record.js";

/**
 * `value` with each unknown value of an enum that has a fallback read as the fallback, its pointer
 * pushed to `read`; the value itself when nothing is, else copies of the objects and arrays on the
 * way. Never changes its argument.
 */
export const readFallbacks = (value: unknown, shape: VersionShape, read: string[]): unknown => node(value, { kind: "object", fields: shape.root }, shape, "", read);

const node = (value: unknown, at: ShapeNode, shape: VersionShape, path: string, read: string[]): unknown => {
  switch (at.kind) {
    case "enum": {
      const fallback = shape.fallbacks?.[at.name];
      const known = shape.enums[at.name];
      if (fallback === undefined || typeof value !== "string" || known === undefined || Object.hasOwn(known, value)) return value;
      read.push(path);
      return fallback;
    }
    case "object":
      return fields(value, at.fields, shape, path, read);
    case "named": {
      const type = shape.types[at.name];
      return type === undefined ? value : fields(value, type, shape, path, read);
    }
    case "list": {
      // Past maxItems the validator refuses the list whatever its items say.
      if (!Array.isArray(value) || (at.maxItems !== undefined && value.length > at.maxItems)) return value;
      return items(value, (item, i) => node(item, at.of, shape, `${path}/${i}`, read));
    }
    case "tuple":
      return Array.isArray(value) ? items(value, (item, i) => (i < at.items.length ? node(item, at.items[i]!, shape, `${path}/${i}`, read) : item)) : value;
    case "map":
      return isRecord(value) ? replaced(value, Object.keys(value), () => at.of, shape, path, read) : value;
    case "union": {
      if (!isRecord(value)) return value;
      const tag = value[at.tag];
      const variant = typeof tag === "string" && Object.hasOwn(at.variants, tag) ? at.variants[tag] : undefined;
      return variant === undefined ? value : node(value, variant, shape, path, read);
    }
    case "contract": {
      const version = isRecord(value) ? value["version"] : undefined;
      const inner = typeof version === "string" && Object.hasOwn(at.versions, version) ? at.versions[version] : undefined;
      return inner === undefined ? value : nested(value, inner, path, read);
    }
    // An untagged union's variant is not known before validation; json and scalars hold no enum.
    default:
      return value;
  }
};

/** An embedded contract's payload, its pointers under `path`. */
const nested = (value: unknown, shape: VersionShape, path: string, read: string[]): unknown => {
  const inner: string[] = [];
  const result = readFallbacks(value, shape, inner);
  for (const pointer of inner) read.push(`${path}${pointer}`);
  return result;
};

const fields = (value: unknown, declared: ShapeFields, shape: VersionShape, path: string, read: string[]): unknown =>
  isRecord(value) ? replaced(value, Object.keys(declared).filter((name) => Object.hasOwn(value, name)), (name) => declared[name]!, shape, path, read) : value;

/** `record` with the values at `keys` read along their nodes: itself when none changes, else a copy (`rebuildRecord`). */
const replaced = (record: Record<string, unknown>, keys: readonly string[], nodeOf: (key: string) => ShapeNode, shape: VersionShape, path: string, read: string[]): unknown => {
  const changed: [string, unknown][] = [];
  for (const key of keys) {
    const was = record[key];
    const now = node(was, nodeOf(key), shape, `${path}/${escapePointer(key)}`, read);
    if (now !== was) changed.push([key, now]);
  }
  return changed.length === 0 ? record : rebuildRecord(record, [], changed);
};

const items = (list: readonly unknown[], each: (item: unknown, i: number) => unknown): unknown => {
  let copy: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const now = each(list[i], i);
    if (now !== list[i]) (copy ??= list.slice())[i] = now;
  }
  return copy ?? list;
};
