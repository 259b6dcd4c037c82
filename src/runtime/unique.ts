import { printCanonical, startPrinting, type Printing } from "./canonical-json.js";
import { countWalked } from "./max-nodes.js";

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

/**
 * True when two of the first `limit` items of `items` are equal as JSON (`uniqueItems` fails), in
 * time linear in their size: primitives by SameValueZero (which agrees with jsonEqual on them: NaN
 * = NaN, 0 = -0), objects and arrays by their canonical JSON text, so key order does not matter.
 * `limit` is the list's `maxItems`: past it the list fails anyway, and nothing more is examined.
 * Throws RangeError past MAX_NODES values printed in all (the validator's catch fails the value).
 * The values it prints count into the generated call in progress (`countWalked`).
 */
export const hasDuplicates = (items: readonly unknown[], limit: number = items.length): boolean => {
  const n = Math.min(items.length, limit);
  if (n < 2) return false;
  const primitives = new Set<unknown>();
  let texts: Set<string> | undefined;
  let printing: Printing | undefined;
  try {
    for (let i = 0; i < n; i++) {
      const item = items[i];
      if (typeof item === "object" && item !== null) {
        const text = printCanonical(item, (printing ??= startPrinting()));
        if ((texts ??= new Set()).has(text)) return true;
        texts.add(text);
      } else {
        if (primitives.has(item)) return true;
        primitives.add(item);
      }
    }
    return false;
  } finally {
    if (printing) countWalked(printing.printed);
  }
};
