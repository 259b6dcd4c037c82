// Prettier's layout of JSON (parser "json", printWidth 100), without prettier: a JSON file is a
// third of what prettier would format in a cold run, and its layout has few rules. An object stays
// expanded when its text had a line break before its first key, else it is a group; an array is
// a group, broken when every element is an array (or every one an object) of more than one entry,
// and a list of numbers fills its lines; a group that is broken (or holds one) breaks its parents,
// one that is not prints flat when it fits before the next line break, the comma that follows
// included. Strings keep their text, numbers are normalized as prettier does. Whatever prettier
// could print otherwise is declined (undefined), and prettier formats it: comments, blank lines,
// escapes prettier rewrites, non-ASCII text whose width a fits decision would need.
// test/format/json-layout.test.ts compares it with prettier; test/format/prettier-stable.test.ts
// runs prettier over every emitted file.

import type { EmittedFile } from "../emit/file-builder.js";

const WIDTH = 100;

type Node =
  | { readonly kind: "literal"; readonly text: string; readonly width: number; readonly breaks: false; readonly number: boolean }
  | { readonly kind: "object"; readonly props: readonly { key: string; value: Node }[]; readonly width: number; readonly breaks: boolean }
  | { readonly kind: "array"; readonly items: readonly Node[]; readonly width: number; readonly breaks: boolean };

/** Thrown where prettier's output is not certain; `layoutJson` then declines. */
class Decline extends Error {}

// Prettier measures text with getStringWidth; for printable ASCII that is its length. Other text is
// NaN, so a decision that needs it declines.
const widthOf = (text: string): number => (/^[\x20-\x7e]*$/.test(text) ? text.length : NaN);

/** Prettier's printNumber (src/utils/print-number.js). */
const printNumber = (raw: string): string =>
  raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(\d)/, "$1$2$3")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");

const STRING = /"(?:[^"\\\x00-\x1f]|\\["\\bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const parse = (text: string): Node => {
  let at = 0;
  /** Skips whitespace; true when it held a line break. A blank line is kept by prettier: declined. */
  const space = (): boolean => {
    let breaks = 0;
    for (let c = text.charCodeAt(at); c === 32 || c === 10 || c === 9 || c === 13; c = text.charCodeAt(++at)) if (c === 10) breaks++;
    if (breaks > 1) throw new Decline();
    return breaks > 0;
  };
  const expect = (char: string): void => {
    space();
    if (text[at] !== char) throw new Decline();
    at++;
  };
  const token = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) return undefined;
    at += match[0].length;
    return match[0];
  };
  const value = (): Node => {
    space();
    const char = text[at];
    if (char === "{") {
      at++;
      const broken = space();
      const props: { key: string; value: Node }[] = [];
      if (text[at] === "}") at++;
      else {
        for (;;) {
          space();
          const key = token(STRING);
          if (key === undefined) throw new Decline();
          expect(":");
          props.push({ key, value: value() });
          space();
          if (text[at++] === "}") break;
          if (text[at - 1] !== ",") throw new Decline();
        }
      }
      // `{ "a": 1, "b": 2 }`: the keys, ": ", the values, ", " between, "{ " and " }".
      const width = props.length === 0 ? 2 : props.reduce((n, p) => n + widthOf(p.key) + 2 + p.value.width, 4 + 2 * (props.length - 1));
      return { kind: "object", props, width, breaks: (broken && props.length > 0) || props.some((p) => p.value.breaks) };
    }
    if (char === "[") {
      at++;
      space();
      const items: Node[] = [];
      if (text[at] === "]") at++;
      else {
        for (;;) {
          items.push(value());
          space();
          if (text[at++] === "]") break;
          if (text[at - 1] !== ",") throw new Decline();
        }
      }
      const entries = (n: Node): number => (n.kind === "object" ? n.props.length : n.kind === "array" ? n.items.length : 0);
      const forced =
        items.length > 1 && items.every((item, i) => item.kind !== "literal" && (i === items.length - 1 || items[i + 1]!.kind === item.kind) && entries(item) > 1);
      const width = items.reduce((n, item) => n + item.width, 2 + 2 * Math.max(0, items.length - 1));
      return { kind: "array", items, width, breaks: forced || items.some((item) => item.breaks) };
    }
    const string = token(STRING);
    if (string !== undefined) return { kind: "literal", text: string, width: widthOf(string), breaks: false, number: false };
    const number = token(NUMBER);
    if (number !== undefined) {
      const printed = number.startsWith("-") ? `-${printNumber(number.slice(1))}` : printNumber(number);
      return { kind: "literal", text: printed, width: printed.length, breaks: false, number: true };
    }
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return { kind: "literal", text: word, width: word.length, breaks: false, number: false };
      }
    }
    throw new Decline();
  };
  const root = value();
  space();
  if (at !== text.length) throw new Decline();
  return root;
};

/** Whether `node`, printed flat from column `pos` and followed by `trailing` columns, fits. */
const fits = (node: Node, pos: number, trailing: number): boolean => {
  const end = pos + node.width + trailing;
  if (Number.isNaN(end)) throw new Decline();
  return end <= WIDTH;
};

const flat = (node: Node): string => {
  if (node.kind === "literal") return node.text;
  if (node.kind === "array") return `[${node.items.map(flat).join(", ")}]`;
  return node.props.length === 0 ? "{}" : `{ ${node.props.map((p) => `${p.key}: ${flat(p.value)}`).join(", ")} }`;
};

/**
 * Prints `node` at column `pos` of a line indented `indent`, followed by `trailing` columns before
 * the next line break (a comma, or nothing).
 */
const print = (node: Node, indent: number, pos: number, trailing: number, out: string[]): void => {
  // An empty array or object is `[]` / `{}` however far right it starts.
  const empty = node.kind === "array" ? node.items.length === 0 : node.kind === "object" && node.props.length === 0;
  if (node.kind === "literal" || empty || (!node.breaks && fits(node, pos, trailing))) {
    out.push(flat(node));
    return;
  }
  const inner = indent + 2;
  const pad = `\n${" ".repeat(inner)}`;
  if (node.kind === "object") {
    out.push("{");
    node.props.forEach((p, i) => {
      const last = i === node.props.length - 1;
      const keyWidth = widthOf(p.key);
      out.push(pad, p.key, ": ");
      print(p.value, inner, inner + keyWidth + 2, last ? 0 : 1, out);
      if (!last) out.push(",");
    });
    out.push(`\n${" ".repeat(indent)}}`);
    return;
  }
  if (node.items.every((item) => item.kind === "literal" && item.number)) {
    // fill: the next number joins the line when it fits there with its comma.
    out.push("[", pad);
    let column = inner;
    node.items.forEach((item, i) => {
      const text = i === node.items.length - 1 ? flat(item) : `${flat(item)},`;
      if (i > 0) {
        // prettier asks whether the previous number, a space and this one fit from where the previous began.
        if (column + 1 + text.length <= WIDTH) {
          out.push(" ");
          column += 1;
        } else {
          out.push(pad);
          column = inner;
        }
      }
      out.push(text);
      column += text.length;
    });
    out.push(`\n${" ".repeat(indent)}]`);
    return;
  }
  out.push("[");
  node.items.forEach((item, i) => {
    const last = i === node.items.length - 1;
    out.push(pad);
    print(item, inner, inner, last ? 0 : 1, out);
    if (!last) out.push(",");
  });
  out.push(`\n${" ".repeat(indent)}]`);
};

/** `text` (a JSON file) as prettier's json parser prints it, or undefined where that is not certain. */
export const layoutJson = (text: string): string | undefined => {
  try {
    const out: string[] = [];
    print(parse(text), 0, 0, 0, out);
    out.push("\n");
    return out.join("");
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
};

/** `file` in prettier's layout where treaty prints it without prettier (JSON), else undefined. */
export const directLayout = (file: Pick<EmittedFile, "contents" | "language">): string | undefined =>
  file.language === "json" ? layoutJson(file.contents) : undefined;
