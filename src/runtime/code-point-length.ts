/**
 * The length of `s` in Unicode code points, as JSON Schema's minLength/maxLength count it
 * (a lone surrogate counts as one). Same algorithm as Ajv's `ucs2length`, without allocating.
 */
export const codePointLength = (s: string): number => {
  const len = s.length;
  let count = 0;
  let pos = 0;
  while (pos < len) {
    count++;
    const unit = s.charCodeAt(pos++);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && pos < len && (s.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return count;
};
