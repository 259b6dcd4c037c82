// The formats must accept exactly what ajv-formats (full mode) accepts; date and date-time are
// rewritten, so they are compared on strings built around the RFC 3339 grammar's edges.
import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isDate, isDateTime, isEmail, isUri, isUuid } from "../../src/runtime/formats.js";

const reference = (name: "date" | "date-time" | "uuid" | "email" | "uri"): ((s: string) => boolean) => {
  const format = fullFormats[name] as RegExp | ((s: string) => boolean) | { validate: RegExp | ((s: string) => boolean) };
  const validate = typeof format === "object" && "validate" in format ? format.validate : format;
  return typeof validate === "function" ? validate : (s) => validate.test(s);
};

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const digits = (n: number) => fc.array(fc.constantFrom(..."0123456789"), { minLength: n, maxLength: n }).map((d) => d.join(""));
const padded = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, "0"));
/** Mostly in range, sometimes on or past an edge, sometimes anything. */
const part = (min: number, max: number) =>
  fc.oneof({ arbitrary: padded(min, max), weight: 6 }, { arbitrary: pick("00", "13", "24", "29", "30", "31", "32", "59", "60", "61", "99"), weight: 2 }, { arbitrary: digits(2), weight: 1 });
const year = fc.oneof(pick("2000", "1900", "2024", "2023", "0000", "2100"), digits(4));
const date = fc.tuple(year, part(1, 12), part(1, 28)).map(([y, m, d]) => `${y}-${m}-${d}`);
const fraction = fc.oneof(pick("", "", ".", ".5", ".123", ".999999999999999999999", ".0"), digits(3).map((d) => `.${d}`));
const zone = fc.oneof(
  { arbitrary: pick("Z", "z", "+00:00", "-00:00", "+01:00", "-01:00", "+0100", "+01", "+23:59", "-23:59"), weight: 4 },
  { arbitrary: pick("", "+24:00", "-00:60", "+1:00", "+01:0"), weight: 1 },
  { arbitrary: fc.tuple(pick("+", "-"), part(0, 23), pick(":", ""), part(0, 59)).map((p) => p.join("")), weight: 2 },
);
const time = fc.tuple(part(0, 23), part(0, 59), part(0, 59), fraction, zone).map(([h, m, s, f, z]) => `${h}:${m}:${s}${f}${z}`);
const separator = fc.oneof({ arbitrary: pick("T", "t", " "), weight: 6 }, { arbitrary: pick("\t", "\u00a0", "\u2028", "x", "TT", ""), weight: 1 });
const dateTime = fc.tuple(date, separator, time).map(([d, s, t]) => `${d}${s}${t}`);
const noise = fc.tuple(dateTime, fc.nat(30), fc.string({ maxLength: 2 })).map(([s, i, insert]) => s.slice(0, i) + insert + s.slice(i + insert.length));

describe("formats agree with ajv-formats", () => {
  it.each([
    ["date", isDate, fc.oneof(date, noise, fc.string())],
    ["date-time", isDateTime, fc.oneof(dateTime, noise, fc.string())],
  ] as const)("%s", (name, ours, strings) => {
    const theirs = reference(name);
    let accepted = 0;
    fc.assert(
      fc.property(strings, (s) => {
        expect(ours(s), JSON.stringify(s)).toBe(theirs(s));
        if (ours(s)) accepted++;
      }),
      { numRuns: 20_000, seed: 5 },
    );
    expect(accepted).toBeGreaterThan(1000);
  });

  it.each([
    "2016-12-31T23:59:60Z",
    "2016-12-31T23:59:60.999Z",
    "2017-01-01T00:59:60+01:00",
    "2016-12-31T22:59:60-01:00",
    "2016-12-31T23:59:59.99999999999999999Z",
    "2016-12-31T23:59:60.99999999999999999Z",
    "2024-02-29T12:00:00+05:30",
    "2023-02-29T12:00:00Z",
    "2024-01-01T12:00:00",
    "2024-01-01 12:00:00Z",
    "2024-01-01T12:00:00+2400",
  ])("date-time %s", (s) => expect(isDateTime(s)).toBe(reference("date-time")(s)));

  it.each([
    ["uuid", isUuid, ["123e4567-e89b-12d3-a456-426614174000", "urn:uuid:123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000", ""]],
    ["email", isEmail, ["a@b.co", "a.b+c@example.com", "a@b", "@b.co", "a..b@c.d"]],
    ["uri", isUri, ["https://example.com/a?b#c", "urn:isbn:0451450523", "/relative", "example.com", "http://[::1]:80/"]],
  ] as const)("%s", (name, ours, samples) => {
    for (const s of samples) expect(ours(s), s).toBe(reference(name)(s));
  });
});
