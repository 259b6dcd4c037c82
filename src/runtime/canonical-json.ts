// One canonical JSON text per value, so equal values hash and compare alike whatever their key
// order: pii markers, contract shapes, input hashes and stored events all go through it.
import { MAX_NODES } from "./max-nodes.js";
import { sha256, toHex, utf8 } from "./sha256.js";

/**
 * `ancestors`: the objects being printed above this point (added on the way down, removed on the
 * way up), so a cycle prints `?`; `printed`: how many values are printed so far.
 */
export interface Printing {
  readonly ancestors: Set<object>;
  printed: number;
}

/** A fresh printing state, for `printCanonical` to share one MAX_NODES budget between several values. */
export const startPrinting = (): Printing => ({ ancestors: new Set(), printed: 0 });

/** `canonicalJson` of `value`, counted against the budget of `state` (other values printed with it count too). */
export const printCanonical = (value: unknown, state: Printing): string => {
  if (++state.printed > MAX_NODES) throw new RangeError(`canonicalJson: more than ${MAX_NODES} values`);
  // NaN and ±Infinity are no JSON: `?`, where JSON.stringify would print them as null.
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "?";
  if (typeof value === "string" || typeof value === "boolean" || value === null) return JSON.stringify(value);
  const { ancestors } = state;
  if (typeof value !== "object" || ancestors.has(value)) return "?";
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = "[";
    for (let i = 0; i < value.length; i++) text += `${i === 0 ? "" : ","}${printCanonical(value[i], state)}`;
    text += "]";
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    text = "{";
    for (let i = 0; i < keys.length; i++) text += `${i === 0 ? "" : ","}${JSON.stringify(keys[i])}:${printCanonical(record[keys[i]!], state)}`;
    text += "}";
  }
  ancestors.delete(value);
  return text;
};

/**
 * JSON with object keys sorted. What JSON cannot hold (undefined, bigint, functions, cycles)
 * prints as `?`: a marker never fails on them. Callers that need real JSON check the value first.
 * Throws RangeError past MAX_NODES values (a value sharing objects may print as exponentially many).
 */
export const canonicalJson = (value: unknown): string => printCanonical(value, startPrinting());

/** Lower-case hex SHA-256 of the value's canonical JSON: the input hash of agent events and approvals. */
export const canonicalHash = (value: unknown): string => toHex(sha256(utf8(canonicalJson(value))));
