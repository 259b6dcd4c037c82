import type { Issue } from "./issue.js";
import { isRecord } from "./is-record.js";

/** The issue of a map whose entries name a key twice, at the map. */
const duplicateKey = (path: string): Issue => ({ path, code: "unique", message: "unique: expected each key at most once", expected: "each key at most once" });

/**
 * The object a provider wrote as a list of `{ key, value }` entries (a map, under a provider whose
 * objects are closed), each value through `inner`. Undefined when `entries` is not such a list
 * (the contract's validator then says what is wrong there) or names a key twice, which is an issue
 * at `path()` (computed only then). A key such as `__proto__` is defined, never assigned.
 */
export const recordOfEntries = (
  entries: readonly unknown[],
  issues: Issue[],
  path: () => string,
  inner?: (value: unknown, key: string) => unknown,
): Record<string, unknown> | undefined => {
  const record: Record<string, unknown> = {};
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry["key"] !== "string" || !Object.hasOwn(entry, "value") || Object.keys(entry).length !== 2) return undefined;
    const key = entry["key"];
    if (Object.hasOwn(record, key)) {
      issues.push(duplicateKey(path()));
      return undefined;
    }
    const value = inner ? inner(entry["value"], key) : entry["value"];
    if (key === "__proto__") Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
    else record[key] = value;
  }
  return record;
};
