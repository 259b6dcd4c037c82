// `isBefore`, the order of a `before` rule, against instants known as nanoseconds: strings are
// written from them (any offset, any number of fraction digits), and the order of the strings must
// be the order of the numbers. Date.parse, which the rule used to rely on, fails both cases the
// last test names.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isDateTime } from "../../src/runtime/formats.js";
import { isBefore } from "../../src/runtime/instants.js";

const NS_PER_MS = 1_000_000n;
const MIN_MS = Date.UTC(1, 0, 2); // a day inside year 1, so any offset stays in years 0001–9999
const MAX_MS = Date.UTC(9999, 11, 30);

/** `ns` (nanoseconds since the epoch) written at `offset` minutes east of UTC, its fraction's first `digits` digits (the rest must be zeros) and `zeros` more. */
const written = (ns: bigint, offset: number, digits: number, zeros: number): string => {
  // Floored, not truncated: before 1970 the nanoseconds are negative.
  const ms = Number((ns - (((ns % NS_PER_MS) + NS_PER_MS) % NS_PER_MS)) / NS_PER_MS);
  const local = new Date(ms + offset * 60_000).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const nanos = String(((ns % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n).padStart(9, "0");
  const fraction = digits === 0 && zeros === 0 ? "" : `.${nanos.slice(0, digits)}${"0".repeat(zeros)}`;
  const zone = offset === 0 ? "Z" : `${offset < 0 ? "-" : "+"}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0")}:${String(Math.abs(offset) % 60).padStart(2, "0")}`;
  return `${local.slice(0, 19)}${fraction}${zone}`;
};

const instant = fc.bigInt({ min: BigInt(MIN_MS) * NS_PER_MS, max: BigInt(MAX_MS) * NS_PER_MS });
const offset = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });

describe("isBefore", () => {
  it("orders date-times written at any offset and precision as the instants they write", () => {
    fc.assert(
      fc.property(instant, instant, offset, offset, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 3 }), (ra, b, oa, ob, cut, zeros) => {
        // `a` at a coarser precision, written with as many digits as it has.
        const unit = 10n ** BigInt(cut);
        const a = ra - (ra % unit);
        const [x, y] = [written(a, oa, 9 - cut, zeros), written(b, ob, 9, 0)];
        expect(isDateTime(x) && isDateTime(y)).toBe(true);
        expect(isBefore(x, y)).toBe(a < b);
        expect(isBefore(y, x)).toBe(b < a);
      }),
      { numRuns: 2000 },
    );
  });

  it("orders instants a nanosecond apart, and one instant written twice is not before itself", () => {
    fc.assert(
      fc.property(instant, offset, offset, (a, oa, ob) => {
        expect(isBefore(written(a, oa, 9, 0), written(a + 1n, ob, 9, 0))).toBe(true);
        expect(isBefore(written(a, oa, 9, 2), written(a, ob, 9, 0))).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it("takes a full-date as midnight UTC", () => {
    expect(isBefore("2030-01-01", "2030-01-01T00:00:00.000000001Z")).toBe(true);
    expect(isBefore("2030-01-01", "2030-01-01T00:00:00Z")).toBe(false);
    expect(isBefore("2029-12-31T23:59:59.999Z", "2030-01-01")).toBe(true);
    expect(isBefore("2030-01-01T01:00:00+02:00", "2030-01-01")).toBe(true);
  });

  it("puts a leap second after :59 and before the next minute, at any offset", () => {
    const leap = "2016-12-31T23:59:60Z";
    expect(isDateTime(leap)).toBe(true);
    expect(isBefore("2016-12-31T23:59:59.999999Z", leap)).toBe(true);
    expect(isBefore(leap, "2016-12-31T23:59:60.5Z")).toBe(true);
    expect(isBefore("2016-12-31T23:59:60.5Z", "2017-01-01T00:00:00Z")).toBe(true);
    expect(isBefore(leap, "2030-01-01T00:00:00Z")).toBe(true);
    expect(isBefore("2016-12-31T15:59:60-08:00", "2017-01-01T00:00:00Z")).toBe(true);
    expect(isBefore("2016-12-31T15:59:60-08:00", leap)).toBe(false);
  });

  it("compares below the millisecond and through a leap second, where Date.parse cannot", () => {
    const [a, b] = ["2030-01-01T00:00:00.0001Z", "2030-01-01T00:00:00.0009Z"];
    expect(Date.parse(a) < Date.parse(b)).toBe(false);
    expect(isBefore(a, b)).toBe(true);
    expect(Number.isNaN(Date.parse("2016-12-31T23:59:60Z"))).toBe(true);
  });

  it("is false when either side is no date or date-time (the rule then fails)", () => {
    for (const [a, b] of [
      ["yesterday", "2030-01-01"],
      ["2030-01-01", "2030-01-02T00:00:00"],
      ["2030-01-01", ""],
    ]) {
      expect(isBefore(a!, b!)).toBe(false);
    }
  });
});
