// The lenient tokenizer and parser behind `repairJson`: it reads one JSON value that may carry the
// known LLM slips, records each slip as a flag and writes the strict JSON text of the value.
// Everything else fails with a position and what was expected, never with the input's text.
import type { RepairFlag } from "./repair.js";

/** The text being repaired, with memoized searches so repeated attempts stay linear. */
export interface Source {
  readonly text: string;
  /** The first index ≥ `from` where `needle` starts, or -1. */
  find(needle: string, from: number): number;
}

export type Parse =
  | { ok: true; json: string; flags: Set<RepairFlag>; start: number; end: number }
  | { ok: false; position: number; message: string; truncated: boolean; tokens: number; flags: Set<RepairFlag> };

type Token =
  | { kind: "{" | "}" | "[" | "]" | ":" | "," | "end"; start: number; end: number }
  | { kind: "string" | "number"; start: number; end: number; json: string }
  | { kind: "word"; start: number; end: number; word: string }
  | { kind: "bad"; start: number; end: number; problem: string; truncated: boolean };

type State = "value" | "value-or-close" | "value-after-comma" | "key-or-close" | "key-after-comma" | "colon" | "next" | "done";

const PUNCTUATION = new Set(["{", "}", "[", "]", ":", ","]);
const CLOSING_QUOTE = new Map([['"', '"'], ["'", "'"], ["\u201C", "\u201D"], ["\u2018", "\u2019"]]);
const SIMPLE_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const HEX4 = /^[0-9a-fA-F]{4}$/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const NUMBER_TAIL = /[0-9A-Za-z_$.+-]/;
const WORD = /[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*/uy;
const LITERALS = new Set(["true", "false", "null"]);
const PYTHON_LITERALS = new Map([["True", "true"], ["False", "false"], ["None", "null"]]);

export const createSource = (text: string): Source => {
  // A search from `from` that lands at `found` answers every later search starting in [from, found].
  const memo = new Map<string, { from: number; found: number }>();
  return {
    text,
    find(needle, from) {
      const last = memo.get(needle);
      if (last && from >= last.from && (last.found === -1 || from <= last.found)) return last.found;
      const found = text.indexOf(needle, from);
      memo.set(needle, { from, found });
      return found;
    },
  };
};

const bad = (start: number, end: number, problem: string, truncated = false): Token => ({ kind: "bad", start, end, problem, truncated });

/** Skips JSON whitespace and comments; returns the next index, or a bad token for an open comment. */
const skipTrivia = (source: Source, pos: number, to: number, flags: Set<RepairFlag>): number | Token => {
  const { text } = source;
  while (pos < to) {
    const c = text[pos];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") pos++;
    else if (c === "/" && text[pos + 1] === "/") {
      const newline = source.find("\n", pos);
      pos = newline === -1 || newline > to ? to : newline;
      flags.add("comments");
    } else if (c === "/" && text[pos + 1] === "*") {
      const close = source.find("*/", pos + 2);
      if (close === -1 || close + 2 > to) return bad(pos, to, "a comment that is never closed", true);
      pos = close + 2;
      flags.add("comments");
    } else break;
  }
  return pos;
};

/**
 * Reads a string opened by `"`, `'`, `“` or `‘` and writes it double-quoted. Only the quoting
 * changes: inner `"` gets escaped, an escaped closing quote loses its backslash, and every other
 * escape is kept as written after checking it is a JSON one.
 */
const readString = (text: string, start: number, to: number, flags: Set<RepairFlag>): Token => {
  const open = text[start]!;
  const close = CLOSING_QUOTE.get(open)!;
  const plain = open === '"';
  let json = '"';
  let chunk = start + 1;
  let i = chunk;
  while (i < to) {
    const c = text[i]!;
    if (c === close) {
      if (open === "'") flags.add("single-quotes");
      else if (!plain) flags.add("typographic-quotes");
      return { kind: "string", start, end: i + 1, json: plain ? text.slice(start, i + 1) : `${json}${text.slice(chunk, i)}"` };
    }
    if (c === "\\") {
      const escaped = text[i + 1];
      if (escaped === undefined || i + 1 >= to) return bad(start, to, "a string that is never closed", true);
      if (escaped === close && !plain) {
        json += text.slice(chunk, i) + close;
        chunk = i += 2;
      } else if (SIMPLE_ESCAPES.has(escaped)) i += 2;
      else if (escaped === "u" && i + 6 <= to && HEX4.test(text.slice(i + 2, i + 6))) i += 6;
      else return bad(i, i + 2, "an escape sequence JSON does not have");
    } else if (c.charCodeAt(0) < 0x20) return bad(i, i + 1, "a control character inside a string (it must be escaped)");
    else if (c === '"') {
      json += `${text.slice(chunk, i)}\\"`;
      chunk = ++i;
    } else i++;
  }
  return bad(start, to, "a string that is never closed", true);
};

const readNumber = (text: string, start: number, to: number): Token => {
  NUMBER.lastIndex = start;
  const end = NUMBER.exec(text) === null ? start : NUMBER.lastIndex;
  if (end === start || end > to || (end < to && NUMBER_TAIL.test(text[end]!))) return bad(start, Math.max(end, start + 1), "a number JSON does not allow");
  return { kind: "number", start, end, json: text.slice(start, end) };
};

const nextToken = (source: Source, pos: number, to: number, flags: Set<RepairFlag>): Token => {
  const skipped = skipTrivia(source, pos, to, flags);
  if (typeof skipped !== "number") return skipped;
  const { text } = source;
  const start = skipped;
  if (start >= to) return { kind: "end", start: to, end: to };
  const c = text[start]!;
  if (PUNCTUATION.has(c)) return { kind: c as "{", start, end: start + 1 };
  if (CLOSING_QUOTE.has(c)) return readString(text, start, to, flags);
  if (c === "-" || (c >= "0" && c <= "9")) return readNumber(text, start, to);
  WORD.lastIndex = start;
  if (WORD.test(text) && WORD.lastIndex <= to) return { kind: "word", start, end: WORD.lastIndex, word: text.slice(start, WORD.lastIndex) };
  return bad(start, start + 1, "an unexpected character");
};

const describe = (token: Token): string => {
  switch (token.kind) {
    case "end":
      return "the end of the text";
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "word":
      return LITERALS.has(token.word) || PYTHON_LITERALS.has(token.word) ? "a literal" : "unquoted text";
    case "bad":
      return token.problem;
    default:
      return `'${token.kind}'`;
  }
};

const EXPECTED: Readonly<Record<Exclude<State, "next">, string>> = {
  value: "a value",
  "value-or-close": "a value or ']'",
  "value-after-comma": "a value or ']'",
  "key-or-close": "a key or '}'",
  "key-after-comma": "a key or '}'",
  colon: "':' after the key",
  done: "the end of the text after the value",
};

const failure = (token: Token, expected: string, tokens: number, flags: Set<RepairFlag>): Parse => ({
  ok: false,
  position: token.start,
  message: `expected ${expected} at position ${token.start}, found ${describe(token)}`,
  truncated: token.kind === "end" || (token.kind === "bad" && token.truncated),
  tokens,
  flags,
});

/**
 * Parses one value from `from`. `whole` demands that only whitespace and comments follow it before
 * `to`; otherwise the value ends at its last token. `tokens` counts the tokens read before a failure,
 * which tells a stray bracket in prose from broken JSON.
 */
export const parseValue = (source: Source, from: number, to: number, whole: boolean): Parse => {
  const flags = new Set<RepairFlag>();
  const out: string[] = [];
  const closers: ("}" | "]")[] = [];
  let state: State = "value";
  let pos = from;
  let start = -1;
  let end = -1;
  for (let tokens = 0; ; tokens++) {
    const token = nextToken(source, pos, to, flags);
    if (start === -1) start = token.start;
    pos = token.end;
    // Each state either takes the token (and moves on) or breaks out to the failure below.
    reject: {
      let completed = false;
      switch (state) {
        case "value":
        case "value-or-close":
        case "value-after-comma": {
          if (token.kind === "]" && state !== "value") {
            if (state === "value-after-comma") flags.add("trailing-comma");
            out.push(closers.pop()!);
            completed = true;
            break;
          }
          const separator = state === "value-after-comma" ? "," : "";
          if (token.kind === "{" || token.kind === "[") {
            out.push(separator, token.kind);
            closers.push(token.kind === "{" ? "}" : "]");
            state = token.kind === "{" ? "key-or-close" : "value-or-close";
          } else if (token.kind === "string" || token.kind === "number") {
            out.push(separator, token.json);
            completed = true;
          } else if (token.kind === "word" && (LITERALS.has(token.word) || PYTHON_LITERALS.has(token.word))) {
            if (PYTHON_LITERALS.has(token.word)) flags.add("python-literals");
            out.push(separator, PYTHON_LITERALS.get(token.word) ?? token.word);
            completed = true;
          } else break reject;
          break;
        }
        case "key-or-close":
        case "key-after-comma": {
          if (token.kind === "}") {
            if (state === "key-after-comma") flags.add("trailing-comma");
            out.push(closers.pop()!);
            completed = true;
            break;
          }
          const separator = state === "key-after-comma" ? "," : "";
          if (token.kind === "string") out.push(separator, token.json);
          else if (token.kind === "word") {
            flags.add("unquoted-keys");
            out.push(separator, JSON.stringify(token.word));
          } else break reject;
          state = "colon";
          break;
        }
        case "colon":
          if (token.kind !== ":") break reject;
          out.push(":");
          state = "value";
          break;
        case "next":
          if (token.kind === ",") state = closers.at(-1) === "}" ? "key-after-comma" : "value-after-comma";
          else if (token.kind === closers.at(-1)) {
            out.push(closers.pop()!);
            completed = true;
          } else break reject;
          break;
        case "done":
          if (token.kind !== "end") break reject;
          return { ok: true, json: out.join(""), flags, start, end };
      }
      if (completed) {
        end = token.end;
        if (closers.length > 0) state = "next";
        else if (whole) state = "done";
        else return { ok: true, json: out.join(""), flags, start, end };
      }
      continue;
    }
    return failure(token, state === "next" ? `',' or '${closers.at(-1)}'` : EXPECTED[state], tokens, flags);
  }
};

/** Where a double-quoted JSON string starting at `start` ends, or -1 if it does not end on its line. */
export const stringEnd = (text: string, start: number): number => {
  const token = readString(text, start, text.length, new Set());
  return token.kind === "string" ? token.end : -1;
};
