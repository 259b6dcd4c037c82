// One canonical JSON text per value, so equal values hash and compare alike whatever their key
// order: pii markers, contract shapes, input hashes and stored events all go through it.
import { sha256, toHex, utf8 } from "./sha256.js";

const print = (value: unknown, ancestors: ReadonlySet<object>): string => {
  if (value === null || typeof value === "boolean" || typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  if (typeof value !== "object" || ancestors.has(value)) return "?";
  const inside = new Set(ancestors).add(value);
  if (Array.isArray(value)) return `[${Array.from(value, (item) => print(item, inside)).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${print(record[key], inside)}`).join(",")}}`;
};

/**
 * JSON with object keys sorted. What JSON cannot hold (undefined, bigint, functions, cycles)
 * prints as `?`: a marker never fails. Callers that need real JSON check the value first.
 */
export const canonicalJson = (value: unknown): string => print(value, new Set());

/** Lower-case hex SHA-256 of the value's canonical JSON: the input hash of agent events and approvals. */
export const canonicalHash = (value: unknown): string => toHex(sha256(utf8(canonicalJson(value))));
