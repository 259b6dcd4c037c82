// Bounded, deterministic repair of LLM text into one JSON value (DESIGN.md §7). Only syntactic
// slips with a single reading are fixed, each named in the result; a value is never invented,
// completed, dropped or re-worded, and a text with two candidate values is refused, not guessed.
import { createSource, parseValue, stringEnd, type Parse, type Source } from "./repair-parser.js";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Every fix, in the order they apply; a result lists those that changed something, in this order.
 * - `code-fence`: the value sat in a ``` fence (with or without a language tag).
 * - `surrounding-prose`: text before or after the one value was dropped.
 * - `comments`: `//` and `/* *\/` comments outside strings were dropped.
 * - `typographic-quotes`: “…” or ‘…’ used as string quotes became `"`.
 * - `single-quotes`: '…' strings became "…" (inner `"` escaped, `\'` unescaped).
 * - `unquoted-keys`: identifier keys got quotes.
 * - `python-literals`: True, False and None outside strings became true, false and null.
 * - `trailing-comma`: a comma before `]` or `}` was dropped.
 */
export const REPAIR_FLAGS = [
  "code-fence",
  "surrounding-prose",
  "comments",
  "typographic-quotes",
  "single-quotes",
  "unquoted-keys",
  "python-literals",
  "trailing-comma",
] as const;
export type RepairFlag = (typeof REPAIR_FLAGS)[number];

export interface RepairError {
  code: "UNPARSEABLE";
  /** Where and what was expected; never a piece of the input, which may hold secrets. */
  message: string;
  /** Index (UTF-16 code unit) in the input. */
  position?: number;
}

/** On failure, `repairs` lists the fixes the failed read had already made inside the value. */
export type RepairResult = { ok: true; value: JsonValue; repairs: RepairFlag[] } | { ok: false; error: RepairError; repairs: RepairFlag[] };

/** A ``` block: markers at [open, contentStart) and [contentEnd, close); an unclosed one runs to the end. */
interface Fence {
  open: number;
  contentStart: number;
  contentEnd: number;
  close: number;
}

interface Candidate {
  start: number;
  end: number;
  parsed: Extract<Parse, { ok: true }>;
  fence?: Fence;
}

const INFO = /[A-Za-z][\w+.#-]*/y;

/** The longest text repair is tried on (2 MiB of UTF-16 code units, well past a model's output); longer text must be valid JSON. */
export const MAX_REPAIRED_LENGTH = 2_097_152;

/**
 * Turns `text` into the one JSON value it holds. Valid JSON costs one `JSON.parse` and comes back
 * with no repairs. Otherwise the whole text is read leniently; failing that, the value is looked
 * for in ``` fences and in prose: the content of a fence that is one value, or an object or array
 * in the prose (a scalar in prose is not taken). Exactly one such value must exist.
 */
export const repairJson = (text: string): RepairResult => {
  // A byte order mark is no part of the text (RFC 8259 lets a parser ignore it), and no slip to
  // name: the rest is read, and a failure's position still counts it.
  if (text.charCodeAt(0) === 0xfeff) {
    const read = repairJson(text.slice(1));
    return read.ok || read.error.position === undefined ? read : { ...read, error: { ...read.error, position: read.error.position + 1 } };
  }
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    // Repair reads leniently, about ten times slower than JSON.parse: past any model's output, not tried.
    if (text.length > MAX_REPAIRED_LENGTH) return failure(`not valid JSON, and too long to repair (more than ${MAX_REPAIRED_LENGTH} characters)`);
    return repair(createSource(text));
  }
  return twice(text, value) ? refuseTwice(text) : { ok: true, value, repairs: [] };
};

// A key an object names twice has two readings: JSON.parse keeps the last, other parsers the
// first, so a guard reading the text with one and treaty with the other would judge different
// values. Refused like two values, not guessed.

/** Where the JSON string opening at `start` of valid JSON `text` ends (after its closing quote). */
const stringAfter = (text: string, start: number): number => {
  for (let at = start + 1; ; ) {
    const quote = text.indexOf('"', at);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
};

/** Whether a `:` follows `at` of `text`, past whitespace: the string before it was a key. */
const keyEnds = (text: string, at: number): boolean => {
  let c = text.charCodeAt(at);
  while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++at);
  return c === 58;
};

/**
 * Whether valid JSON `text` (parsed as `value`) names some key twice in an object: it writes more
 * keys than `value` holds. Every `"` outside a string opens one, so the strings are found by
 * `indexOf` alone (a regular expression's backtracking overflowed on a string of 10 million escapes).
 */
const twice = (text: string, value: JsonValue): boolean => {
  if (typeof value !== "object" || value === null) return false;
  let written = 0;
  for (let at = text.indexOf('"'); at !== -1; ) {
    const end = stringAfter(text, at);
    if (keyEnds(text, end)) written++;
    at = text.indexOf('"', end);
  }
  return written !== keysIn(value);
};

/** The keys of every object in `value`, counted with an explicit stack (a value may nest deeper than the call stack). */
const keysIn = (value: JsonValue): number => {
  let keys = 0;
  const pending: JsonValue[] = [value];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next !== "object" || next === null) continue;
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === "object" && item !== null) pending.push(item);
      continue;
    }
    for (const key in next) {
      // Only own keys: a key Object.prototype lends every object (a polluted process) is not one the text named.
      if (!Object.hasOwn(next, key)) continue;
      keys++;
      const item = next[key]!;
      if (typeof item === "object" && item !== null) pending.push(item);
    }
  }
  return keys;
};

/** The refusal of valid JSON `text` that names a key twice, at its second naming. */
const refuseTwice = (text: string): RepairResult => {
  // The keys of each open object (an array's entry stays empty).
  const open: Set<string>[] = [];
  for (let at = 0; at < text.length; at++) {
    const c = text[at];
    if (c === "{" || c === "[") open.push(new Set());
    else if (c === "}" || c === "]") open.pop();
    else if (c === '"') {
      const end = stringAfter(text, at);
      if (keyEnds(text, end)) {
        const key = JSON.parse(text.slice(at, end)) as string;
        const seen = open.at(-1)!;
        if (seen.has(key)) return failure(`an object names a key twice (again at position ${at}); refusing to pick one`, at);
        seen.add(key);
      }
      at = end - 1;
    }
  }
  return failure("an object names a key twice; refusing to pick one");
};

const repair = (source: Source): RepairResult => {
  const { text } = source;
  if (!hasContent(text, 0, text.length)) return failure("expected a JSON value, found an empty text");
  const whole = parseValue(source, 0, text.length, true);
  if (whole.ok) return success(whole, []);
  const fences = findFences(text);
  const blocks = fences.flatMap((fence): Candidate[] => {
    const parsed = parseValue(source, fence.contentStart, fence.contentEnd, true);
    return parsed.ok ? [{ start: fence.contentStart, end: fence.contentEnd, parsed, fence }] : [];
  });
  const prose = scanProse(source, blocks.map((block) => block.fence!));
  if (!Array.isArray(prose)) return failed(prose);
  const candidates = [...blocks, ...prose].sort((a, b) => a.start - b.start);
  const [first, second] = candidates;
  if (second) {
    const where = `at positions ${first!.parsed.start} and ${second.parsed.start}${candidates.length > 2 ? " and more" : ""}`;
    return failure(`expected exactly one JSON value, found ${candidates.length} (${where}); refusing to pick one`, second.parsed.start);
  }
  if (first) return success(first.parsed, surroundings(text, first, fences));
  // A text that starts like JSON reports where it broke; anything else just holds no value.
  if (whole.truncated || whole.tokens > 0) return failed(whole);
  return failure("expected a JSON value (an object or array, or any value alone or in a ``` fence), found none");
};

const success = (parsed: Candidate["parsed"], around: RepairFlag[]): RepairResult => {
  const value = JSON.parse(parsed.json) as JsonValue;
  const repairs = REPAIR_FLAGS.filter((flag) => around.includes(flag) || parsed.flags.has(flag));
  // The repaired text is not the input: the refusal names no position in it.
  if (twice(parsed.json, value)) return { ...failure("an object names a key twice; refusing to pick one"), repairs };
  return { ok: true, value, repairs };
};

const failure = (message: string, position?: number, repairs: RepairFlag[] = []): RepairResult => ({
  ok: false,
  error: position === undefined ? { code: "UNPARSEABLE", message } : { code: "UNPARSEABLE", message, position },
  repairs,
});

const failed = (parsed: Extract<Parse, { ok: false }>): RepairResult =>
  failure(parsed.message, parsed.position, REPAIR_FLAGS.filter((flag) => parsed.flags.has(flag)));

/** Whether [from, to) holds anything but JSON whitespace. */
const hasContent = (text: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) {
    const c = text[i];
    if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") return true;
  }
  return false;
};

const atLineStart = (text: string, at: number): boolean => {
  let i = at - 1;
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  return i < 0 || text[i] === "\n";
};

const atLineEnd = (text: string, at: number): boolean => {
  let i = at;
  while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\r")) i++;
  return i === text.length || text[i] === "\n";
};

/** The end of a fence's language tag (`json`, `jsonc` ...), or `at` when there is none. */
const infoEnd = (text: string, at: number): number => {
  INFO.lastIndex = at;
  if (!INFO.test(text)) return at;
  const next = text[INFO.lastIndex];
  return next === undefined || next === "{" || next === "[" || /\s/.test(next) ? INFO.lastIndex : at;
};

const nextMarker = (text: string, from: number, accept: (at: number) => boolean): number => {
  for (let at = text.indexOf("```", from); at !== -1; at = text.indexOf("```", at + 1)) if (accept(at)) return at;
  return -1;
};

/**
 * Fences in order. A marker counts only at the start or the end of a line (an opener may carry a
 * tag): a JSON string cannot span lines, so a ``` inside one is never taken for a marker.
 */
const findFences = (text: string): Fence[] => {
  const fences: Fence[] = [];
  for (let from = 0; ; ) {
    const open = nextMarker(text, from, (at) => atLineStart(text, at) || atLineEnd(text, infoEnd(text, at + 3)));
    if (open === -1) return fences;
    const contentStart = infoEnd(text, open + 3);
    const close = nextMarker(text, contentStart, (at) => atLineStart(text, at) || atLineEnd(text, at + 3));
    if (close === -1) return [...fences, { open, contentStart, contentEnd: text.length, close: text.length }];
    fences.push({ open, contentStart, contentEnd: close, close: close + 3 });
    from = close + 3;
  }
};

/**
 * Objects and arrays in the prose outside the `claimed` fences. A bracket whose next token cannot
 * start the content (`[see below]`, `{name}`) is prose; one that reads further and then breaks is
 * broken JSON, and that failure is the answer. Quoted strings in prose are skipped whole, so an
 * example like "[1]" is not taken for the value.
 */
const scanProse = (source: Source, claimed: Fence[]): Candidate[] | Extract<Parse, { ok: false }> => {
  const { text } = source;
  const found: Candidate[] = [];
  let next = 0;
  for (let i = 0; i < text.length; ) {
    const fence = claimed[next];
    if (fence && i >= fence.open) {
      i = Math.max(i, fence.close);
      next++;
      continue;
    }
    const c = text[i];
    if (c === '"') {
      i = Math.max(stringEnd(text, i), i + 1);
      continue;
    }
    if (c === "{" || c === "[") {
      const parsed = parseValue(source, i, fence?.open ?? text.length, false);
      if (parsed.ok) {
        found.push({ start: i, end: parsed.end, parsed });
        i = parsed.end;
        continue;
      }
      const stray = !parsed.truncated && (parsed.tokens <= 1 || (c === "{" && parsed.tokens === 2));
      if (!stray) return parsed;
    }
    i++;
  }
  return found;
};

/** `code-fence` when the value sat in a fence, `surrounding-prose` when anything else is around it. */
const surroundings = (text: string, candidate: Candidate, fences: Fence[]): RepairFlag[] => {
  const { start, end } = candidate;
  const fence = candidate.fence ?? fences.find((f) => f.contentStart <= start && end <= f.contentEnd);
  const outside = fence
    ? [
        [0, fence.open],
        [fence.contentStart, start],
        [end, fence.contentEnd],
        [fence.close, text.length],
      ]
    : [
        [0, start],
        [end, text.length],
      ];
  const prose = outside.some(([from, to]) => hasContent(text, from!, to!));
  return [...(fence ? (["code-fence"] as const) : []), ...(prose ? (["surrounding-prose"] as const) : [])];
};
