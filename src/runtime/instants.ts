// The order of two RFC 3339 instants, for `before` rules: a full-date (midnight UTC) or a
// date-time, compared exactly. `Date.parse` keeps milliseconds only (00.0001 and 00.0009 are one
// instant to it) and has no second 60, which `format: date-time` accepts at 23:59 UTC.

/** An instant as whole seconds since 0000-03-01 UTC (a leap second counts as :59), whether it is :60, and its fraction's digits. */
interface Instant {
  readonly seconds: number;
  readonly leap: boolean;
  readonly fraction: string;
}

const INSTANT = /^(\d{4})-(\d\d)-(\d\d)(?:[Tt\s](\d\d):(\d\d):(\d\d)(?:\.(\d+))?([Zz]|([+-])(\d\d)(?::?(\d\d))?))?$/;

/** Days from 0000-03-01 to `year-month-day` in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil). */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
};

const instantOf = (s: string): Instant | undefined => {
  const m = INSTANT.exec(s);
  if (m === null) return undefined;
  const days = daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]));
  if (m[4] === undefined) return { seconds: days * 86400, leap: false, fraction: "" };
  const second = Number(m[6]);
  const offset = m[9] === undefined ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11] ?? 0));
  return {
    seconds: days * 86400 + Number(m[4]) * 3600 + (Number(m[5]) - offset) * 60 + Math.min(second, 59),
    leap: second === 60,
    fraction: (m[7] ?? "").replace(/0+$/, ""),
  };
};

/**
 * Whether instant `a` is strictly earlier than instant `b`, each a full-date or an RFC 3339
 * date-time; false when either is neither (the rule fails, as the field's format does).
 */
export const isBefore = (a: string, b: string): boolean => {
  const x = instantOf(a);
  const y = instantOf(b);
  if (x === undefined || y === undefined) return false;
  if (x.seconds !== y.seconds) return x.seconds < y.seconds;
  if (x.leap !== y.leap) return y.leap;
  // Digit strings without trailing zeros order as the fractions they write.
  return x.fraction < y.fraction;
};
