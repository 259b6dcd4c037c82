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
export const isDateTime = (s: string): boolean => {
  if (!DATE_TIME.test(s) || !isValidDay(s)) return false;
  const hr = digits(s, 11, 2);
  const min = digits(s, 14, 2);
  const secInt = digits(s, 17, 2);
  let end = 19;
  if (s.charCodeAt(end) === 46 /* . */) do end++; while (s.charCodeAt(end) >= 48 && s.charCodeAt(end) <= 57);
  // Only a fraction on second 59 or 60 can change the comparisons with 60 and 61 below
  // (by rounding up); parse it exactly there, as ajv-formats does everywhere.
  const sec = end > 19 && (secInt === 59 || secInt === 60) ? Number(s.slice(17, end)) : secInt;
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
