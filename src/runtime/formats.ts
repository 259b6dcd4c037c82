// String formats in ajv-formats' "full" mode, so generated validators agree with Ajv + ajv-formats
// on the JSON Schemas treaty emits. The regular expressions and date rules are copied from
// ajv-formats 3 (https://github.com/ajv-validator/ajv-formats, MIT License, Copyright (c) 2020
// Evgeny Poberezkin); date and date-time are rewritten to test without allocating.

const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const NOT_URI_FRAGMENT = /\/|:/;
const URI = /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

const DATE = /^\d\d\d\d-\d\d-\d\d$/;
// ajv-formats splits on /t|\s/i and requires a date and a time with a timezone on either side.
// Neither half can contain a separator, so one anchored expression accepts the same strings.
const DATE_TIME = /^\d\d\d\d-\d\d-\d\d[t\s]\d\d:\d\d:\d\d(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by `count` ASCII digits of `s` at `start`. */
const digits = (s: string, start: number, count: number): number => {
  let n = 0;
  for (let i = start; i < start + count; i++) n = n * 10 + s.charCodeAt(i) - 48;
  return n;
};

const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** Month and day ranges of a YYYY-MM-DD prefix that already matched its pattern. */
const isValidDay = (s: string): boolean => {
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(digits(s, 0, 4)) ? 29 : DAYS[month]!);
};

/** RFC 3339 full-date. */
export const isDate = (s: string): boolean => DATE.test(s) && isValidDay(s);

/** RFC 3339 date-time with a required timezone, leap seconds included. */
export const isDateTime = (s: string): boolean => DATE_TIME.test(s) && isValidDay(s) && timeHolds(s, 11);

/** The ranges of the `HH:MM:SS[.frac]zone` at `start` of `s`, which matched its pattern. */
const timeHolds = (s: string, start: number): boolean => {
  const hr = digits(s, start, 2);
  const min = digits(s, start + 3, 2);
  const secInt = digits(s, start + 6, 2);
  let end = start + 8;
  if (s.charCodeAt(end) === 46 /* . */) do end++; while (s.charCodeAt(end) >= 48 && s.charCodeAt(end) <= 57);
  // Only a fraction on second 59 or 60 can change the comparisons with 60 and 61 below
  // (by rounding up); parse it exactly there, as ajv-formats does everywhere.
  const sec = end > start + 8 && (secInt === 59 || secInt === 60) ? Number(s.slice(start + 6, end)) : secInt;
  return zonedTimeHolds(s, end, hr, min, sec);
};

/** The ranges of a time whose zone starts at `end` (it matched its pattern), leap seconds at 23:59 UTC only. */
const zonedTimeHolds = (s: string, end: number, hr: number, min: number, sec: number): boolean => {
  let tzSign = 1;
  let tzH = 0;
  let tzM = 0;
  const zone = s.charCodeAt(end);
  if (zone !== 90 /* Z */ && zone !== 122 /* z */) {
    tzSign = zone === 45 /* - */ ? -1 : 1;
    tzH = digits(s, end + 1, 2);
    if (s.length > end + 3) tzM = digits(s, s.length - 2, 2);
  }
  if (tzH > 23 || tzM > 59) return false;
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  // A leap second is valid only at 23:59 UTC.
  const utcMin = min - tzM * tzSign;
  const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
};

export const isUuid = (s: string): boolean => UUID.test(s);

export const isEmail = (s: string): boolean => EMAIL.test(s);

/** An absolute URI (RFC 3986). */
export const isUri = (s: string): boolean => NOT_URI_FRAGMENT.test(s) && URI.test(s);

// The formats real protocols use (MCP, A2A, OpenAPI). Each expression is ajv-formats' own where it
// has one; all of them are anchored and their alternatives start on different characters or
// consume a bounded length, so a backtracking engine still runs in linear time (test/runtime
// formats.test.ts proves it with recheck). Host names are read label by label instead.
const URI_TEMPLATE = /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;
// ajv-formats compiles this with the `m` flag, so it accepts any string one line of which is
// base64; without it the whole string must be (RFC 4648 §4, padded), as OpenAPI's `byte` means.
const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const INT64 = /^-?(?:0|[1-9][0-9]{0,18})$/;
const INT64_MAX = "9223372036854775807";
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$/i;
// ajv-formats' expression with its look-aheads (not empty after P, a digit after T) written out.
const DURATION = /^P(?:(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?:\d+H(?:\d+M)?(?:\d+S)?|\d+M(?:\d+S)?|\d+S))?|\d+W)$/;
// ajv-formats' time: a fraction of any length, a required zone (strict mode, as for date-time).
const TIME = /^\d\d:\d\d:\d\d(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i;

/** A URI Template (RFC 6570). */
export const isUriTemplate = (s: string): boolean => URI_TEMPLATE.test(s);

/** Base64 with padding (RFC 4648 §4): the whole string, no line breaks. */
export const isByte = (s: string): boolean => BYTE.test(s);

/** A decimal integer in JSON's grammar within the signed 64-bit range (OpenAPI `int64` carried as a string). */
export const isInt64 = (s: string): boolean => {
  if (!INT64.test(s)) return false;
  const magnitude = s.charCodeAt(0) === 45 /* - */ ? s.slice(1) : s;
  if (magnitude.length < 19) return true;
  // Same length: comparing digit strings compares the numbers; -2^63 is one past the largest.
  return magnitude <= INT64_MAX || (s !== magnitude && magnitude === "9223372036854775808");
};

/** An RFC 1123 host name, at most 253 characters. */
export const isHostname = (s: string): boolean => {
  const end = s.charCodeAt(s.length - 1) === 46 /* . */ ? s.length - 1 : s.length;
  if (end === 0 || end > 253) return false;
  let label = 0;
  for (let i = 0; i <= end; i++) {
    const c = i === end ? 46 : s.charCodeAt(i);
    if (c === 46) {
      // A label is 1 to 63 letters, digits and hyphens, with no hyphen at either end.
      if (label === 0 || label > 63 || s.charCodeAt(i - 1) === 45) return false;
      label = 0;
    } else if ((c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) || (c === 45 && label > 0)) label++;
    else return false;
  }
  return true;
};

export const isIpv4 = (s: string): boolean => IPV4.test(s);

export const isIpv6 = (s: string): boolean => IPV6.test(s);

/** An ISO 8601 duration (RFC 3339 appendix A): `P1DT2H`, `P3W`. */
export const isDuration = (s: string): boolean => s !== "P" && DURATION.test(s);

/** RFC 3339 full-time: a time of day with a required zone, leap seconds at 23:59 UTC only. */
export const isTime = (s: string): boolean => TIME.test(s) && timeHolds(s, 0);

/** Each format's test, by its JSON Schema name: the formats treaty's IDL has. */
export const FORMAT_TESTS = {
  "date-time": isDateTime,
  date: isDate,
  uuid: isUuid,
  uri: isUri,
  email: isEmail,
  "uri-template": isUriTemplate,
  byte: isByte,
  int64: isInt64,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  duration: isDuration,
  time: isTime,
} as const satisfies { readonly [format: string]: (s: string) => boolean };
