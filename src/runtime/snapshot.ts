// What `decode` validates and hands over is one copy of the input, read once: a JS value may be a
// Proxy or carry getters that answer differently on each read, and the first read is the one the
// validator checked. JSON text needs none (JSON.parse builds fresh plain data).

/**
 * A plain copy of `value` as JSON sees it: arrays item by item, objects by their own enumerable
 * string keys (inherited fields are not the value's, as Ajv's `ownProperties` has it), each
 * property read exactly once; anything else as it is, for the validator to judge. Throws what a
 * getter or Proxy trap throws, and RangeError on a cyclic value.
 */
export const snapshot = (value: unknown): unknown => {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const n = value.length;
    const copy: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) copy[i] = snapshot(value[i]);
    return copy;
  }
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const item = snapshot(record[key]);
    // `__proto__` stays a data property, as JSON.parse makes it, never the copy's prototype.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
};

/** What `readValue` returns for a value that threw while it was read. */
export const UNREADABLE: unique symbol = Symbol("unreadable");

/** The snapshot of `value`, or UNREADABLE when reading it threw (a getter, a Proxy trap, a cycle). */
export const readValue = (value: unknown): unknown => {
  try {
    return snapshot(value);
  } catch {
    return UNREADABLE;
  }
};

/** The issue of an UNREADABLE value: a `parse` issue at the root, as for text that is not JSON. */
export const UNREADABLE_ISSUE = Object.freeze({
  path: "",
  code: "parse",
  message: "unreadable value: a getter or Proxy threw, or the value is cyclic",
  expected: "a JSON value",
});

/**
 * `value` (an object) as generated validators read it: itself when it is a plain object (its
 * prototype Object.prototype or null, so a field read is an own one, the members of Object.prototype
 * aside, which the validator reads with Object.hasOwn); otherwise a copy of its own enumerable
 * properties, so a field it only inherits counts as absent, as in Ajv with `ownProperties`.
 */
export const ownView = (value: object): object => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null ? value : Object.fromEntries(Object.entries(value));
};
