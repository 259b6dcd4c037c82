// What the IDL accepts. Past these, treaty reports `limit-exceeded` at the line rather than generate
// code that a formatter, a compiler or the file system cannot take. Each is stated in the README.
import type { Node } from "yaml";
import type { Reader } from "./reader.js";

export const IDL_LIMITS = {
  /** Lists, maps, objects and unions nested in one field's type: formatters and compilers recurse on it. */
  depth: 64,
  /** A recursive type's `maxDepth`: validators, redaction and decode recurse once per level. */
  maxDepth: 256,
  /**
   * Types in one version written out, named types and contract references expanded as projections
   * and generated tests expand them (a named type used twice by the next, down a chain, doubles per
   * level): five times the 20,000-field contract of the bench.
   */
  expandedSize: 250_000,
  /** Characters in a contract or agent name: it names generated files, which file systems cap at 255 bytes. */
  nameLength: 128,
  /** A version's MAJOR and MINOR: each names generated folders and is compared as a number. */
  versionNumber: 999_999,
  /** `minLength`, `maxLength`, `minItems`, `maxItems`: the longest array JavaScript can hold (2^32 − 1). */
  count: 2 ** 32 - 1,
  /** `min`, `max`, `exclusiveMin`, `exclusiveMax` of an `int`: the integers a JavaScript number holds exactly. */
  integer: Number.MAX_SAFE_INTEGER,
} as const;

/** Pairs of a lower and an upper bound of one type: `check` refuses a pair no value meets (min-above-max), and `treaty import` leaves such a pair out. */
export const BOUND_PAIRS = [
  ["min", "max"],
  ["minLength", "maxLength"],
  ["minItems", "maxItems"],
  ["exclusiveMin", "max"],
  ["min", "exclusiveMax"],
  ["exclusiveMin", "exclusiveMax"],
] as const;

/** Whether bounds `low` of kind `min` and `high` of kind `max` admit a value (an exclusive bound of either kind makes equal ones meet nothing). */
export const boundsMeet = (min: string, low: number, max: string, high: number): boolean =>
  min.startsWith("exclusive") || max.startsWith("exclusive") ? low < high : low <= high;

/** Reports a contract or agent name longer than `IDL_LIMITS.nameLength` at its node. */
export const checkNameLength = (r: Reader, node: Node | null, what: string, name: string): void => {
  if (name.length > IDL_LIMITS.nameLength) {
    r.report("limit-exceeded", node, { what: `the ${what}'s length`, actual: `${name.length} characters`, max: `${IDL_LIMITS.nameLength}` });
  }
};
