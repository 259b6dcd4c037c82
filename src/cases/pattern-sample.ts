// A string matching a regular expression, for the subset of syntax contracts use: literals and
// escapes, `.`, `\d \w \s` and their negations, character classes (ranges, negation), groups
// (capturing or `(?:`) with alternatives, the quantifiers `? * + {n} {n,} {n,m}` (lazy or not) and
// the anchors `^ $`. Anything else (Unicode properties, lookaround, `\b`) is sampled from the
// pattern's automaton (ir/pattern-language.ts), and a pattern that has none (a backreference)
// gives undefined: the caller then has no sample rather than a wrong one. Deterministic: the first
// alternative, the smallest repeat count, one fixed character per class; the automaton's shortest,
// most readable string.

import { matchingString, rejectedString } from "../ir/pattern-language.js";

type Node =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "seq"; readonly items: readonly Node[] }
  | { readonly kind: "alt"; readonly options: readonly Node[] }
  | { readonly kind: "repeat"; readonly node: Node; readonly min: number; readonly max: number };

// Characters a class is sampled from, in order of preference.
const CANDIDATES = [..."a0Ab1B_-xX9.:/ ~!"];

class Unsupported extends Error {}

const parse = (pattern: string): Node => {
  let i = 0;
  const peek = (): string | undefined => pattern[i];
  const unsupported = (): never => {
    throw new Unsupported(pattern);
  };

  const classChar = (test: (c: string) => boolean): string => CANDIDATES.find(test) ?? unsupported();

  const escape = (): { test: (c: string) => boolean; literal?: string } => {
    const c = pattern[i++] ?? unsupported();
    switch (c) {
      case "d":
        return { test: (x) => /\d/.test(x) };
      case "D":
        return { test: (x) => /\D/.test(x) };
      case "w":
        return { test: (x) => /\w/.test(x) };
      case "W":
        return { test: (x) => /\W/.test(x) };
      case "s":
        return { test: (x) => /\s/.test(x) };
      case "S":
        return { test: (x) => /\S/.test(x) };
      case "n":
        return { test: (x) => x === "\n", literal: "\n" };
      case "t":
        return { test: (x) => x === "\t", literal: "\t" };
      default:
        if (/[A-Za-z0-9]/.test(c)) return unsupported(); // \b, \1, \p{...}, \u....: outside the subset
        return { test: (x) => x === c, literal: c };
    }
  };

  const charClass = (): Node => {
    const negated = peek() === "^";
    if (negated) i++;
    const tests: ((c: string) => boolean)[] = [];
    let first: string | undefined;
    while (peek() !== "]") {
      if (peek() === undefined) unsupported();
      let low: string;
      if (peek() === "\\") {
        i++;
        const e = escape();
        if (e.literal === undefined) {
          tests.push(e.test);
          continue;
        }
        low = e.literal;
      } else low = pattern[i++]!;
      if (peek() === "-" && pattern[i + 1] !== "]" && pattern[i + 1] !== undefined) {
        i++;
        const high = peek() === "\\" ? (i++, escape().literal ?? unsupported()) : pattern[i++]!;
        tests.push((c) => c >= low && c <= high);
        first ??= low;
      } else {
        tests.push((c) => c === low);
        first ??= low;
      }
    }
    i++;
    const member = (c: string): boolean => tests.some((t) => t(c));
    const pick = negated ? classChar((c) => !member(c)) : (CANDIDATES.find(member) ?? first ?? unsupported());
    return { kind: "text", text: pick };
  };

  const atom = (): Node => {
    const c = pattern[i++]!;
    switch (c) {
      case "(": {
        if (peek() === "?") {
          if (pattern[i + 1] !== ":") unsupported();
          i += 2;
        }
        const node = alternatives();
        if (pattern[i++] !== ")") unsupported();
        return node;
      }
      case "[":
        return charClass();
      case "\\": {
        const e = escape();
        return { kind: "text", text: e.literal ?? classChar(e.test) };
      }
      case ".":
        return { kind: "text", text: "a" };
      case "^":
      case "$":
        return { kind: "text", text: "" };
      case "*":
      case "+":
      case "?":
      case "{":
      case ")":
      case "|":
        return unsupported();
      default:
        return { kind: "text", text: c };
    }
  };

  const quantified = (node: Node): Node => {
    const c = peek();
    let min: number;
    let max: number;
    if (c === "?" || c === "*" || c === "+") {
      i++;
      [min, max] = c === "?" ? [0, 1] : c === "*" ? [0, Infinity] : [1, Infinity];
    } else if (c === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!match) return node; // a literal `{`, as in JavaScript without the `u` flag
      i += match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
    } else return node;
    if (peek() === "?") i++;
    return { kind: "repeat", node, min, max };
  };

  const sequence = (): Node => {
    const items: Node[] = [];
    while (peek() !== undefined && peek() !== "|" && peek() !== ")") items.push(quantified(atom()));
    return { kind: "seq", items };
  };

  const alternatives = (): Node => {
    const options = [sequence()];
    while (peek() === "|") {
      i++;
      options.push(sequence());
    }
    return options.length === 1 ? options[0]! : { kind: "alt", options };
  };

  const node = alternatives();
  if (i !== pattern.length) unsupported();
  return node;
};

/** One character long, whatever the repeat: what a longer sample repeats. */
const isOneChar = (node: Node): boolean => node.kind === "text" && [...node.text].length === 1;

/** `extra` characters are spent on the first repeats of a single character that have room. */
const render = (node: Node, budget: { extra: number }): string => {
  switch (node.kind) {
    case "text":
      return node.text;
    case "seq":
      return node.items.map((item) => render(item, budget)).join("");
    case "alt":
      return render(node.options[0]!, budget);
    case "repeat": {
      let count = node.min;
      if (isOneChar(node.node) && budget.extra > 0) {
        const more = Math.min(budget.extra, node.max - node.min);
        count += more;
        budget.extra -= more;
      }
      return Array.from({ length: count }, () => render(node.node, budget)).join("");
    }
  }
};

const codePoints = (s: string): number => [...s].length;

/**
 * A string matching `pattern` (with the `u` flag, unanchored as in JSON Schema) of exactly
 * `length` code points, or as short as the pattern allows when `length` is absent; undefined when
 * the pattern is outside the subset or cannot be sampled at that length.
 */
export const samplePattern = (pattern: string, length?: number): string | undefined => {
  let tree: Node;
  try {
    tree = parse(pattern);
  } catch (error) {
    // Outside the subset: the pattern's automaton gives one (pattern-language.ts), if it can.
    if (error instanceof Unsupported) return fromAutomaton(pattern, length);
    throw error;
  }
  const shortest = render(tree, { extra: 0 });
  const sample = length === undefined ? shortest : render(tree, { extra: length - codePoints(shortest) });
  if ((length !== undefined && codePoints(sample) !== length) || !new RegExp(pattern, "u").test(sample)) return fromAutomaton(pattern, length);
  return sample;
};

/** The automaton's string, held to the pattern as validators run it. */
const fromAutomaton = (pattern: string, length: number | undefined): string | undefined => {
  const sample = matchingString(pattern, length);
  return sample !== undefined && new RegExp(pattern, "u").test(sample) && (length === undefined || codePoints(sample) === length) ? sample : undefined;
};

// Tried in order for a string a pattern rejects.
const NON_MATCHING = ["~", "", "0", "a", "A", "~0aA"];

/** A short string `pattern` rejects (one of NON_MATCHING, else the automaton's shortest), or undefined when it accepts every string. */
export const nonMatching = (pattern: string): string | undefined => {
  const re = new RegExp(pattern, "u");
  const found = NON_MATCHING.find((s) => !re.test(s)) ?? rejectedString(pattern);
  return found !== undefined && !re.test(found) ? found : undefined;
};

/**
 * A match of `pattern` with a character on one `side` of it, when `pattern` rejects that (it is
 * anchored at that end): one case per anchor, so a validator that drops either anchor fails one.
 * The match has `length` code points where the pattern allows (the string then meets a
 * `minLength` and only the anchor rejects it), else it is the shortest.
 */
export const withTextBeside = (pattern: string, side: "before" | "after", length?: number): string | undefined => {
  const sample = (length === undefined ? undefined : samplePattern(pattern, length)) ?? samplePattern(pattern);
  if (sample === undefined) return undefined;
  const re = new RegExp(pattern, "u");
  return TEXT_BESIDE.map((c) => (side === "before" ? `${c}${sample}` : `${sample}${c}`)).find((s) => !re.test(s));
};

// Tried in order as the text beside a match.
const TEXT_BESIDE = ["~", " ", "0", "a"];
