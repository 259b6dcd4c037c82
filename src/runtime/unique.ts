/** Structural equality of JSON values (arrays by position, objects by own enumerable keys). */
export const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    // NaN equals NaN here, as in Ajv's `equal` (fast-deep-equal).
    return a !== a && b !== b;
  }
  const aIsArray = Array.isArray(a);
  if (aIsArray !== Array.isArray(b)) return false;
  if (aIsArray) {
    const bs = b as readonly unknown[];
    if (a.length !== bs.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bs[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao);
  if (keys.length !== Object.keys(bo).length) return false;
  for (const key of keys) if (!Object.hasOwn(bo, key) || !jsonEqual(ao[key], bo[key])) return false;
  return true;
};

// Past this many items a Set beats comparing every pair (only used when all items are primitives).
const PAIRWISE_LIMIT = 32;

const allPrimitive = (items: readonly unknown[]): boolean => {
  for (const item of items) if (typeof item === "object" && item !== null) return false;
  return true;
};

/** True when two items of `items` are equal as JSON (`uniqueItems` fails). */
export const hasDuplicates = (items: readonly unknown[]): boolean => {
  const n = items.length;
  if (n < 2) return false;
  // SameValueZero (Set) agrees with jsonEqual on primitives: NaN = NaN and 0 = -0.
  if (n > PAIRWISE_LIMIT && allPrimitive(items)) return new Set(items).size !== n;
  for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if (jsonEqual(items[i], items[j])) return true;
  return false;
};
