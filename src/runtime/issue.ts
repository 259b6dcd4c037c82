/**
 * One way a value fails its contract, as `errors()` reports it.
 *
 * `code` is stable: type, required, unknown, enum, const, pattern, format, minLength, maxLength,
 * min, max, exclusiveMin, exclusiveMax, multipleOf, minItems, maxItems, unique, tag, and the
 * semantic rules rule.before, rule.exclusive, rule.requires. `message` and `expected` describe
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
