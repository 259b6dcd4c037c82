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
 * Puts `tail` (a pointer's segments, `/name` or `/0`, escaped) in front of the paths of the issues
 * of `out` from index `from` on. A generated `err_` function reports paths below the value it is
 * given, and its caller, which knows where that value is, puts them under it: a path is put
 * together only for an issue, on the way back up, and a valid part of a payload costs no string.
 */
export const nest = (out: Issue[], from: number, tail: string): void => {
  for (let i = from; i < out.length; i++) {
    const issue = out[i]!;
    issue.path = tail + issue.path;
  }
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
