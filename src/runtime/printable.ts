// Text shown on one line: a diagnostic's echo of a name or key, a path in a re-ask or an error's
// details. Shared by the compiler's diagnostics and the runtime (which takes no code from the compiler).

const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
// Controls (C0, DEL, C1 such as U+0085), format characters (bidi overrides such as U+202E, U+FEFF,
// zero-width ones) and the line and paragraph separators U+2028, U+2029.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * `text` on one line and shown as written, every control or bidirectional character spelled as an
 * escape (`\n`, `\u202e`), so a key cannot break a one-line format (a diagnostic's
 * `file:line:col - error code: message`, a re-ask's `- path (code): ...`) or reorder what a reader sees.
 */
export const printable = (text: string): string =>
  // Printable ASCII, nearly every path a failure shows, needs no look at Unicode's categories.
  printableAscii(text)
    ? text
    : text.replace(UNPRINTABLE, (c) => {
        const hex = c.codePointAt(0)!.toString(16);
        return SHORT_ESCAPES[c] ?? (hex.length > 4 ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`);
      });

/** Whether every character of `text` is printable ASCII: a loop over its codes, a fifth of a regular expression's test on a path. */
const printableAscii = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
};
