// One canonical JSON text per value, so equal values hash and compare alike whatever their key
// order: pii markers, contract shapes, input hashes and stored events all go through it.
import { sha256, toHex, utf8 } from "./sha256.js";

/** `ancestors`: the objects being printed above this point (added on the way down, removed on the way up), so a cycle prints `?`. */
const print = (value: unknown, ancestors: Set<object>): string => {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null) return JSON.stringify(value);
  if (typeof value !== "object" || ancestors.has(value)) return "?";
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = "[";
    for (let i = 0; i < value.length; i++) text += `${i === 0 ? "" : ","}${print(value[i], ancestors)}`;
    text += "]";
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    text = "{";
    for (let i = 0; i < keys.length; i++) text += `${i === 0 ? "" : ","}${JSON.stringify(keys[i])}:${print(record[keys[i]!], ancestors)}`;
    text += "}";
  }
  ancestors.delete(value);
  return text;
};

/**
 * JSON with object keys sorted. What JSON cannot hold (undefined, bigint, functions, cycles)
 * prints as `?`: a marker never fails. Callers that need real JSON check the value first.
 */
export const canonicalJson = (value: unknown): string => print(value, new Set());

/** Lower-case hex SHA-256 of the value's canonical JSON: the input hash of agent events and approvals. */
export const canonicalHash = (value: unknown): string => toHex(sha256(utf8(canonicalJson(value))));
