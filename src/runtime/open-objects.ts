// Unknown keys of `unknown_fields: keep` objects, which adapters carry from one version's object
// into the other's unchanged.

/**
 * The own enumerable keys of `value` not in `known`, with their values, as a fresh object (a key
 * `__proto__` stays data); `{}` for anything that is not an object.
 */
export const keptKeys = (value: unknown, known: readonly string[]): Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).filter((key) => !known.includes(key)).map((key) => [key, record[key]]));
};

/** Containers a kept value may hold; past them it is refused, as a bound on work per payload. */
const MAX_JSON_NODES = 100_000;

/** On the walk's stack: leave `object` (it is no longer an ancestor of what follows). */
interface Leave {
  readonly leave: object;
}

/**
 * Whether `value` is JSON data, as a kept unknown key's value must be (it is handed over and
 * written again unchanged): null, a boolean, a string, a finite number, or arrays and objects (own
 * enumerable keys) of those, at most MAX_JSON_NODES containers. Walked with a stack, so a deeply
 * nested hostile value cannot exhaust the call stack; a cycle is not JSON (a shared object is).
 */
export const isJsonData = (value: unknown): boolean => {
  const stack: unknown[] = [value];
  const ancestors = new Set<object>();
  const leaving = new WeakSet<Leave>();
  let containers = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return false;
      continue;
    }
    if (typeof v !== "object") return false;
    if (leaving.has(v as Leave)) {
      ancestors.delete((v as Leave).leave);
      continue;
    }
    if (ancestors.has(v) || ++containers > MAX_JSON_NODES) return false;
    ancestors.add(v);
    const leave: Leave = { leave: v };
    leaving.add(leave);
    stack.push(leave);
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push(v[i]);
    else for (const key of Object.keys(v)) stack.push((v as Record<string, unknown>)[key]);
  }
  return true;
};
