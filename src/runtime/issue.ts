/**
 * One way a value fails its contract, as `errors()` reports it.
 *
 * `code` is stable: type, required, unknown, enum, const, pattern, format, minLength, maxLength,
 * min, max, exclusiveMin, exclusiveMax, multipleOf, minItems, maxItems, unique, tag, the
 * semantic rules rule.before, rule.exclusive, rule.requires, and `truncated`: what of the value at
 * `path` was not examined (items past `maxItems`, keys past the number an object may hold, or
 * the rest of the payload once `MAX_ISSUES` issues are recorded). `message` and `expected` describe
 * the expectation only: they never quote the payload, whose values may be secrets.
 */
export interface Issue {
  /** JSON pointer (RFC 6901) of the offending value; "" is the payload itself. */
  path: string;
  code: string;
  message: string;
  /** A short human description, e.g. "one of SUCCESS, PARTIAL, FAILED". */
  expected: string;
}

/** Escapes one JSON pointer segment (RFC 6901): `~` → `~0`, `/` → `~1`. */
export const escapePointer = (segment: string): string =>
  segment.includes("~") || segment.includes("/") ? segment.replace(/~/g, "~0").replace(/\//g, "~1") : segment;

/**
 * Where a generated `errors()` is in the value it walks: the segments from the root to the value
 * being examined, each already escaped (`escapePointer`), item indices as numbers. Each `err_`
 * function pushes a segment before it descends and pops it after, so a valid part of the payload
 * costs no string; an issue's pointer is put together only when it is recorded (`pointerOf`).
 */
export type PathStack = (string | number)[];

/** The JSON pointer (RFC 6901) of the segments `at`; "" for none, the payload itself. */
export const pointerOf = (at: PathStack): string => {
  let pointer = "";
  for (let i = 0; i < at.length; i++) pointer += `/${at[i]!}`;
  return pointer;
};

/** The most issues `errors()` records; past them it stops and says so in one `truncated` issue. */
export const MAX_ISSUES = 100;

/** The `truncated` issue: `rest` more `what` at `path` were not examined (`expected` says what the contract allows). */
export const truncated = (path: string, rest: number, what: string, expected: string): Issue => ({
  path,
  code: "truncated",
  message: `not examined: ${rest} more ${what}`,
  expected,
});

/** `out` with at most `MAX_ISSUES` issues, and a `truncated` one when it reached them (and stopped there). */
export const capIssues = (out: Issue[]): Issue[] => {
  if (out.length < MAX_ISSUES) return out;
  out.length = MAX_ISSUES;
  out.push({ path: "", code: "truncated", message: "not examined: the rest of the payload", expected: `at most ${MAX_ISSUES} issues` });
  return out;
};
