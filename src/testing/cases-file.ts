// The format of `generated/<contract>/<contract>.cases.json`: the regression tests treaty derived
// for one contract, as data a reviewer reads in a diff and `treaty/testing` runs. Each case is
// written once with the versions it holds in (a field unchanged across six versions is one case,
// run against six validators), and long values are described rather than spelled out.

/** A JSON value as the cases file holds it. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * A value too long to spell out, described: a string as its parts (a run of one character as
 * `{ repeat, times }`), or a list of `times` copies of one item. The runner builds it.
 */
export type Made = { readonly text: readonly (string | { readonly repeat: string; readonly times: number })[] } | { readonly list: JsonValue; readonly times: number };

/** One change to a version's base value, at a JSON pointer whose parent exists there. */
export type Edit = { readonly set: string; readonly value: JsonValue } | { readonly set: string; readonly make: Made } | { readonly remove: string };

/** Where a value must fail, and why: an issue `errors()` reports. */
export interface Expectation {
  readonly path: string;
  readonly code: string;
}

/** What a case feeds each validator: a value given in full, or the version's base with edits. */
export type CaseValue = { readonly value: JsonValue } | { readonly edits: readonly Edit[] };

/** A case left out of the run, and why (its value would be too long to build). */
export interface Skipped {
  readonly skip: string;
}

/**
 * One check, run against each of `versions`: the value passes (no `expect`), or `errors()`
 * reports `expect` and `check()` agrees. With `roundTrip`, a value that passes also decodes and
 * encodes back to its version unchanged but for what decode strips (valid there, where the version's
 * adapters are lossy; not tried where they may produce a value the canonical model rejects).
 */
export type Case = (CaseValue | Skipped) & {
  readonly title: string;
  readonly versions: readonly string[];
  readonly expect?: Expectation;
  readonly roundTrip?: true;
};

/**
 * A valid value of an older version on its way to the canonical one: it decodes and validates
 * there, comes back (unchanged when `lossless`, else valid in its own version), and encodes to
 * each version in `newer`, valid there.
 */
export type CompatibilityCase = CaseValue & {
  readonly title: string;
  readonly version: string;
  readonly lossless: boolean;
  readonly newer: readonly string[];
};

/** The value a version's mutations start from, or why there is none. */
export type Base = { readonly from: string; readonly value: JsonValue } | { readonly missing: string };

export interface CasesFile {
  readonly $comment: string;
  readonly contract: string;
  readonly canonical: string;
  /** Every version, oldest first. */
  readonly versions: readonly string[];
  readonly bases: { readonly [version: string]: Base };
  readonly cases: readonly Case[];
  readonly compatibility: readonly CompatibilityCase[];
}

/**
 * The longest string or list treaty builds for a case (characters or items). A bound's edge
 * beyond it (`maxLength: 1000000000`) is left out of the generated tests, with the reason.
 */
export const MAX_BUILT_LENGTH = 1_000_000;

/** The value `made` describes. */
export const build = (made: Made): JsonValue =>
  "text" in made ? made.text.map((part) => (typeof part === "string" ? part : part.repeat.repeat(part.times))).join("") : Array.from({ length: made.times }, () => made.list);
