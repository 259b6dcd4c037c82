// Unknown keys of `unknown_fields: keep` objects, which adapters carry from one version's object
// into the other's unchanged.
import type { AdaptLog } from "./adapters.js";
import { escapePointer } from "./issue.js";
import { countWalked, MAX_NODES } from "./max-nodes.js";

/**
 * The own enumerable keys of `value` not in `known`, with their values, as a fresh object (a key
 * `__proto__` stays data); `{}` for anything that is not an object.
 */
export const keptKeys = (value: unknown, known: readonly string[]): Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).filter((key) => !known.includes(key)).map((key) => [key, record[key]]));
};

/**
 * Logs in `log.dropped` (at `at`, a pointer into the `version` payload) each unknown key of `value`
 * named in `claimed`: the names the object a step builds declares and `value`'s object does not.
 * Such a key is not carried over (it is not known to be of the field's type) and not lost silently.
 */
export const dropClaimed = (value: unknown, claimed: readonly string[], log: AdaptLog, version: string, at: string): void => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  for (const key of claimed) if (Object.hasOwn(record, key) && record[key] !== undefined) log.dropped.push({ version, path: `${at}/${escapePointer(key)}` });
};

/**
 * Whether `value` is JSON data, as a kept unknown key's value must be (it is handed over and
 * written again unchanged): null, a boolean, a string, a finite number, or arrays and objects (own
 * enumerable keys) of those, at most MAX_NODES values as JSON (shared objects counted each time). Walked with a stack, so a deeply
 * nested hostile value cannot exhaust the call stack; a cycle is not JSON (a shared object is).
 * What it visits counts into the generated call in progress (`countWalked`).
 */
export const isJsonData = (value: unknown): boolean => {
  // `leaving[i]`: `stack[i]` is an object whose walk ends here (it is no longer an ancestor of what follows).
  const stack: unknown[] = [value];
  const leaving: boolean[] = [false];
  const ancestors = new Set<object>();
  // Counted as they are pushed, so a wide array reached again and again is refused before it is pushed again.
  let visited = 1;
  try {
    while (stack.length > 0) {
      const v = stack.pop();
      if (leaving.pop()) {
        ancestors.delete(v as object);
        continue;
      }
      if (v === null || typeof v === "string" || typeof v === "boolean") continue;
      if (typeof v === "number") {
        if (!Number.isFinite(v)) return false;
        continue;
      }
      if (typeof v !== "object" || ancestors.has(v)) return false;
      ancestors.add(v);
      stack.push(v);
      leaving.push(true);
      const items = Array.isArray(v) ? v : Object.keys(v).map((key) => (v as Record<string, unknown>)[key]);
      if ((visited += items.length) > MAX_NODES) return false;
      for (let i = 0; i < items.length; i++) {
        stack.push(items[i]);
        leaving.push(false);
      }
    }
    return true;
  } finally {
    countWalked(visited);
  }
};
