// Prettier's layout of JSON (parser "json", printWidth 100), without prettier: a JSON file is a
// third of what prettier would format in a cold run, and its layout has few rules. An object stays
// expanded when its text had a line break before its first key, else it is a group; an array is
// a group, broken when every element is an array (or every one an object) of more than one entry,
// and a list of numbers fills its lines; a group that is broken (or holds one) breaks its parents,
// one that is not prints flat when it fits before the next line break, the comma that follows
// included. Strings keep their text, numbers are normalized as prettier does. Whatever prettier
// could print otherwise is declined (undefined), and prettier formats it: comments, blank lines,
// escapes prettier rewrites, non-ASCII text whose width a fits decision would need. A JSON file
// that comes with the data it was written from (`EmittedFile.data`) is laid out from that value
// by the same rules (`layoutValue`), without parsing its text: about two thirds of the time.
//
// The same layout prints a TypeScript declaration of data, `(export) const name(: Type) = <literal>
// (as const);` (the LLM projections, about 40% of a contract's TypeScript), as prettier's babel-ts
// parser prints it: keys without quotes where prettier drops them, strings in the quotes prettier
// prefers, names of other constants as values, a trailing comma wherever a group breaks, and a
// string value moved to the next line when it does not fit after a key of five columns or more.
// test/format/json-layout.test.ts compares both with prettier; test/format/prettier-stable.test.ts
// runs prettier over every emitted file.

import { OneLine, type EmittedFile } from "../emit/file-builder.js";

const WIDTH = 100;

/** What a literal is, for the rules that differ by kind: numbers fill a line, strings may move under their key, a name that does not fit is declined. */
type LiteralKind = "string" | "number" | "word" | "name";

type Node =
  | { readonly kind: "literal"; readonly text: string; readonly width: number; readonly breaks: false; readonly of: LiteralKind }
  | { readonly kind: "object"; readonly props: readonly { key: string; value: Node }[]; readonly width: number; readonly breaks: boolean }
  | { readonly kind: "array"; readonly items: readonly Node[]; readonly width: number; readonly breaks: boolean };

/** Thrown where prettier's output is not certain; `layoutJson` then declines. Not an Error: no stack to capture. */
class Decline {}

// Prettier measures text with getStringWidth; for printable ASCII that is its length. Other text is
// NaN, so a decision that needs it declines.
const widthOf = (text: string): number => (/^[\x20-\x7e]*$/.test(text) ? text.length : NaN);

/** Prettier's printNumber (src/utils/print-number.js). */
export const printNumber = (raw: string): string =>
  raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(\d)/, "$1$2$3")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");

const STRING = /"(?:[^"\\\x00-\x1f]|\\["\\bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A name in TypeScript text: another constant as a value, or a key written without quotes. */
const NAME = /[A-Za-z_$][\w$]*(?![\w$.(])/y;
/** What prettier's quoteProps "as-needed" prints without quotes, of ASCII keys: an identifier name. */
const IDENTIFIER_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * A JSON string (its text, quotes included) as prettier prints a string in TypeScript: in double
 * quotes unless it holds more double quotes than single ones, escapes of the other quote and
 * needless ones dropped (prettier's makeString).
 */
export const printString = (raw: string): string => {
  // Nothing escaped and no quote inside (a double one is always escaped in JSON): as it is.
  if (!raw.includes("\\") && !raw.includes("'")) return raw;
  const content = raw.slice(1, -1);
  const doubles = content.split('"').length - 1;
  const singles = content.split("'").length - 1;
  const quote = doubles > singles ? "'" : '"';
  const other = quote === '"' ? "'" : '"';
  const body = content.replace(/\\(.)|(["'])/gsu, (_, escaped: string | undefined, bare: string | undefined) => {
    if (escaped === other) return escaped;
    if (bare === quote) return `\\${bare}`;
    if (bare) return bare;
    return /^[^\n\r"'0-7\\bfnrt-vx\u2028\u2029]$/u.test(escaped!) ? escaped! : `\\${escaped}`;
  });
  return `${quote}${body}${quote}`;
};

/**
 * A key as prettier prints it in TypeScript: a string that is an identifier name loses its quotes.
 * Prettier tests ES5's identifier names, Unicode letters included: a non-ASCII key is declined.
 */
export const printKey = (raw: string): string => {
  const content = raw.slice(1, -1);
  if (/[^\x00-\x7f]/.test(content)) throw new Decline();
  return !content.includes("\\") && IDENTIFIER_NAME.test(content) ? content : printString(raw);
};

/** An object of `props`; `broken`: its text had a line break before its first key. */
const objectNode = (props: readonly { key: string; value: Node }[], broken: boolean): Node => {
  // `{ "a": 1, "b": 2 }`: the keys, ": ", the values, ", " between, "{ " and " }".
  let width = props.length === 0 ? 2 : 4 + 2 * (props.length - 1);
  let breaks = broken && props.length > 0;
  for (const p of props) {
    width += widthOf(p.key) + 2 + p.value.width;
    breaks ||= p.value.breaks;
  }
  return { kind: "object", props, width, breaks };
};

const entries = (n: Node): number => (n.kind === "object" ? n.props.length : n.kind === "array" ? n.items.length : 0);

/** An array: broken when every item is an array (or every one an object) of more than one entry, or an item is. */
const arrayNode = (items: readonly Node[]): Node => {
  const forced =
    items.length > 1 && items.every((item, i) => item.kind !== "literal" && (i === items.length - 1 || items[i + 1]!.kind === item.kind) && entries(item) > 1);
  let width = 2 + 2 * Math.max(0, items.length - 1);
  let breaks = forced;
  for (const item of items) {
    width += item.width;
    breaks ||= item.breaks;
  }
  return { kind: "array", items, width, breaks };
};

/** A string as printed, quotes included. */
const stringNode = (printed: string): Node => ({ kind: "literal", text: printed, width: widthOf(printed), breaks: false, of: "string" });

/** A number as written in JSON, as prettier prints it (its sign kept apart from printNumber's rules). */
const printJsonNumber = (raw: string): string => (raw.startsWith("-") ? `-${printNumber(raw.slice(1))}` : printNumber(raw));

/** A number as written in JSON, normalized as prettier prints it. */
const numberNode = (raw: string): Node => {
  const printed = printJsonNumber(raw);
  return { kind: "literal", text: printed, width: printed.length, breaks: false, of: "number" };
};

/** The text of one value from `start`, and where it ended; `typescript`: TypeScript's literal syntax (see the head of this file). */
const parse = (text: string, typescript: boolean, start = 0): { readonly node: Node; readonly end: number } => {
  let at = start;
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
  // test, not exec: a megabyte of literals is a hundred thousand tokens, and exec makes a match object of each.
  const token = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    if (!pattern.test(text)) return undefined;
    const match = text.slice(at, pattern.lastIndex);
    at = pattern.lastIndex;
    return match;
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
          const key = typescript ? tsKey() : token(STRING);
          if (key === undefined) throw new Decline();
          expect(":");
          props.push({ key, value: value() });
          space();
          if (text[at++] === "}") break;
          if (text[at - 1] !== ",") throw new Decline();
          if (typescript && (space(), text[at] === "}")) {
            at++;
            break;
          }
        }
      }
      return objectNode(props, broken);
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
          if (typescript && (space(), text[at] === "]")) {
            at++;
            break;
          }
        }
      }
      return arrayNode(items);
    }
    const string = token(STRING);
    if (string !== undefined) return stringNode(typescript ? printString(string) : string);
    const number = token(NUMBER);
    if (number !== undefined) return numberNode(number);
    const word = typescript ? token(NAME) : ["true", "false", "null"].find((w) => text.startsWith(w, at));
    if (word === undefined) throw new Decline();
    if (!typescript) at += word.length;
    const of = word === "true" || word === "false" || word === "null" ? "word" : "name";
    return { kind: "literal", text: word, width: word.length, breaks: false, of };
  };
  /** A TypeScript key as printed: quoted, a name, or `["…"]` (a computed `__proto__` defines a property). */
  const tsKey = (): string | undefined => {
    if (text[at] === "[") {
      at++;
      const inner = token(STRING);
      if (inner === undefined || text[at++] !== "]") throw new Decline();
      return `[${printString(inner)}]`;
    }
    const quoted = token(STRING);
    return quoted === undefined ? token(NAME) : printKey(quoted);
  };
  const node = value();
  return { node, end: at };
};

/** The whole of `text` as one JSON value. */
const parseJson = (text: string): Node => {
  const { node, end } = parse(text, false);
  if (!/^\s*$/.test(text.slice(end)) || /\n\s*\n/.test(text.slice(end))) throw new Decline();
  return node;
};

/**
 * Text put together from many small pieces, joined a few thousand at a time. Held in one array to
 * the end, a megabyte file's pieces all lived long enough to be copied by V8's young-generation
 * collections, which took a third of the layout's time.
 */
class TextBuilder {
  private pieces: string[] = [];
  private readonly chunks: string[] = [];
  push(text: string): void {
    this.pieces.push(text);
    if (this.pieces.length >= 4096) this.seal();
  }
  /** Everything pushed, as one string. */
  text(): string {
    this.seal();
    return this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join("");
  }
  private seal(): void {
    if (this.pieces.length === 0) return;
    this.chunks.push(this.pieces.join(""));
    this.pieces = [];
  }
}

/** A line break and `indent` spaces, made once a run for each indentation: printing a large file asked for them millions of times. */
const breaks: string[] = [];
const lineBreak = (indent: number): string => (breaks[indent] ??= `\n${" ".repeat(indent)}`);

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

/** Numbers (`texts`, each with its comma) as prettier fills them: the next joins the line when it fits there. */
const fill = (texts: readonly string[], indent: number, out: TextBuilder): void => {
  const inner = indent + 2;
  const pad = lineBreak(inner);
  out.push("[");
  out.push(pad);
  let column = inner;
  texts.forEach((text, i) => {
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
  out.push(lineBreak(indent));
  out.push("]");
};

/**
 * Prints `node` at column `pos` of a line indented `indent`, followed by `trailing` columns before
 * the next line break (a comma, or nothing); `typescript` as in `parse`.
 */
const print = (node: Node, indent: number, pos: number, trailing: number, out: TextBuilder, typescript: boolean): void => {
  // An empty array or object is `[]` / `{}` however far right it starts.
  const empty = node.kind === "array" ? node.items.length === 0 : node.kind === "object" && node.props.length === 0;
  if (node.kind === "literal" || empty || (!node.breaks && fits(node, pos, trailing))) {
    // A name that does not fit may move to the next line in prettier's layout: not certain here.
    if (node.kind === "literal" && node.of === "name" && !fits(node, pos, trailing)) throw new Decline();
    out.push(flat(node));
    return;
  }
  const inner = indent + 2;
  const pad = lineBreak(inner);
  // TypeScript: a comma after every entry of a broken group, the last one's included.
  const comma = (last: boolean): boolean => !last || typescript;
  if (node.kind === "object") {
    out.push("{");
    node.props.forEach((p, i) => {
      const last = i === node.props.length - 1;
      const keyWidth = widthOf(p.key);
      const after = comma(last) ? 1 : 0;
      out.push(pad);
      out.push(p.key);
      out.push(":");
      const value = p.value;
      // Prettier's "break-after-operator" for a string under a key of at least tabWidth + 3 columns.
      if (typescript && value.kind === "literal" && value.of === "string" && !fits(value, inner + keyWidth + 2, after)) {
        if (Number.isNaN(keyWidth)) throw new Decline();
        if (keyWidth >= 5) out.push(lineBreak(inner + 2));
        else out.push(" ");
        out.push(value.text);
      } else {
        // An object or array hugs its key only where `key: {` fits (else prettier may break after the colon).
        if (typescript && value.kind !== "literal" && !(inner + keyWidth + 3 <= WIDTH)) throw new Decline();
        out.push(" ");
        print(value, inner, inner + keyWidth + 2, after, out, typescript);
      }
      if (comma(last)) out.push(",");
    });
    out.push(lineBreak(indent));
    out.push("}");
    return;
  }
  if (node.items.every((item) => item.kind === "literal" && item.of === "number")) {
    // TypeScript's last number has its comma too.
    fill(node.items.map((item, i) => (i === node.items.length - 1 && !typescript ? flat(item) : `${flat(item)},`)), indent, out);
    return;
  }
  out.push("[");
  node.items.forEach((item, i) => {
    const last = i === node.items.length - 1;
    out.push(pad);
    print(item, inner, inner, comma(last) ? 1 : 0, out, typescript);
    if (comma(last)) out.push(",");
  });
  out.push(lineBreak(indent));
  out.push("]");
};

/** `text` (a JSON file) as prettier's json parser prints it, or undefined where that is not certain. */
export const layoutJson = (text: string): string | undefined => {
  try {
    const out = new TextBuilder();
    print(parseJson(text), 0, 0, 0, out, false);
    out.push("\n");
    return out.text();
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
};

/** The head of a declaration of data: `(export) const name(: Type) = `. */
const DECLARATION = /^(export )?const ([A-Za-z_$][\w$]*)(: [A-Za-z_$][\w$]*)? = /;
const LINE_COMMENT = /^\/\/(?: .*)?$/;
const DOC_START = /^\/\*\*(?: .*)?$/;
const DOC_LINE = /^ \*(?: (?!.*\*\/).*)?$/;

/**
 * Where in `text` the statement starts, after comments prettier leaves as they are at column 0
 * (line comments, `/** … *\/` blocks) and blank lines between them; undefined if a block is unlike
 * that. Line by line from the start only: every statement of every file is asked, a megabyte
 * function among them.
 */
const statementStart = (text: string): number | undefined => {
  let inBlock = false;
  let at = 0;
  while (at < text.length) {
    const newline = text.indexOf("\n", at);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(at, end);
    if (/\s$/.test(line)) return undefined;
    if (inBlock) {
      if (line === " */") inBlock = false;
      else if (!DOC_LINE.test(line)) return undefined;
    } else if (DOC_START.test(line)) inBlock = !line.endsWith("*/");
    else if (line !== "" && !LINE_COMMENT.test(line)) break;
    at = end + 1;
  }
  return inBlock ? undefined : at;
};

/** Whether `text` is a statement `layoutDeclaration` may print: comments, then `(export) const name(: Type) = `. */
export const declaresData = (text: string): boolean => {
  const start = statementStart(text);
  return start !== undefined && DECLARATION.test(text.slice(start));
};

/**
 * `text`, one top-level statement (comments, then `(export) const name(: Type) = <literal>
 * (as const);`), as prettier's babel-ts parser prints it; undefined where that is not certain (any
 * other statement, a literal this layout does not know, a decision that needs non-ASCII widths).
 */
export const layoutDeclaration = (text: string): string | undefined => {
  const start = statementStart(text);
  if (start === undefined) return undefined;
  const statement = text.slice(start);
  const head = DECLARATION.exec(statement);
  if (head === null) return undefined;
  // Prettier keeps one blank line of several.
  const comments = text.slice(0, start).split("\n").slice(0, -1).filter((line, i, all) => line !== "" || all[i - 1] !== "");
  try {
    const { node, end } = parse(statement, true, head[0].length);
    const rest = statement.slice(end);
    const tail = /^( as const)?;\s*$/.exec(rest);
    if (tail === null) return undefined;
    const closing = `${tail[1] ?? ""};`;
    // Anything on the right may move under `=` in prettier's layout where it does not start on the line.
    if (node.kind === "literal" ? !fits(node, head[0].length, closing.length) : head[0].length + 1 > WIDTH) return undefined;
    const out = new TextBuilder();
    for (const line of comments) out.push(`${line}\n`);
    out.push(head[0]);
    print(node, 0, head[0].length, closing.length, out, true);
    out.push(`${closing}\n`);
    return out.text();
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
};

// The layout of a JSON file's data (see `EmittedFile.data`), printed from the value rather than by
// `parse` of its text, by the same rules, and without building a node of each value: a nonempty
// object outside a `OneLine` part always breaks, so only what may print flat (arrays, empty
// objects, `OneLine` parts) is measured, as the flat text it would print.

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (value: unknown): boolean => value === undefined || typeof value === "function" || typeof value === "symbol";

/** The kind of a value as the array rule tells items apart, and its entries; a literal has none. */
const shapeOf = (value: unknown): { readonly kind: Node["kind"]; readonly entries: number } => {
  const inner = value instanceof OneLine ? value.value : value;
  if (inner === null || typeof inner !== "object") return { kind: "literal", entries: 0 };
  if (Array.isArray(inner)) return { kind: "array", entries: inner.length };
  let entries = 0;
  for (const key of Object.keys(inner)) if (!omitted((inner as Record<string, unknown>)[key])) entries++;
  return { kind: "object", entries };
};

/** An array that breaks whatever its width: every item an array (or every one an object) of more than one entry. */
const forcedBreak = (items: readonly unknown[]): boolean => {
  if (items.length < 2) return false;
  let kind: Node["kind"] | undefined;
  for (const item of items) {
    const shape = shapeOf(item);
    if (shape.kind === "literal" || shape.entries < 2 || (kind !== undefined && shape.kind !== kind)) return false;
    kind = shape.kind;
  }
  return true;
};

/** A JSON literal as prettier prints it (null for a value JSON.stringify leaves out or writes as null). */
const literalText = (value: unknown): string => {
  if (value === null || omitted(value)) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number": {
      // An integer below 1e21 is written as prettier prints it.
      if (Number.isInteger(value) && Math.abs(value) < 1e21) return Object.is(value, -0) ? "0" : String(value);
      const raw = JSON.stringify(value);
      return raw === "null" ? raw : printJsonNumber(raw);
    }
    case "boolean":
      return value ? "true" : "false";
    default:
      throw new Decline(); // a bigint: JSON.stringify throws
  }
};

/** The object or array inside `value`, if it is one; a value that writes itself (a Date, say) is declined. */
const container = (value: unknown): object | undefined => {
  if (value === null || typeof value !== "object") return undefined;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") throw new Decline();
  return value;
};

/** Printable ASCII: text whose width is its length. */
const ASCII = /^[\x20-\x7e]*$/;
/** Whether the flat text `flatText` is building holds text other than printable ASCII, whose width it cannot tell. */
let wide = false;

/**
 * The flat text of `value` (a group that does not break), or undefined where it breaks or, all of it
 * printable ASCII so far, is longer than `room`: a group wider than its line breaks, so the rest of
 * its text is not built (a list of every field's name is 100 KB). Text of another width is built
 * whole, as `fitsText` needs it to decline. Each caller sets `wide` false first. (The text's layout,
 * `layoutJson`, measures a group whole, and declines one that holds other text even where its ASCII
 * alone is too wide: prettier then breaks it as this does.)
 */
const flatText = (value: unknown, oneLine: boolean, room: number): string | undefined => {
  if (value instanceof OneLine) return flatText(value.value, true, room);
  const inner = container(value);
  if (inner === undefined) {
    const text = literalText(value);
    if (!ASCII.test(text)) wide = true;
    // Not `<= room`: the room after a key of another width is NaN, and such a group is measured whole.
    return !wide && text.length > room ? undefined : text;
  }
  if (Array.isArray(inner)) {
    if (inner.length === 0) return "[]";
    if (forcedBreak(inner)) return undefined;
    let text = "[";
    for (let i = 0; i < inner.length; i++) {
      // Room for the item: after the text so far, its separator, and the closing bracket.
      const item = flatText(omitted(inner[i]) ? null : inner[i], oneLine, room - text.length - (i === 0 ? 1 : 3));
      if (item === undefined) return undefined;
      text += i === 0 ? item : `, ${item}`;
    }
    return `${text}]`;
  }
  let text = "";
  for (const key of Object.keys(inner)) {
    const item = (inner as Record<string, unknown>)[key];
    if (omitted(item)) continue;
    // A nonempty object written across lines breaks.
    if (!oneLine) return undefined;
    const printedKey = JSON.stringify(key);
    if (!ASCII.test(printedKey)) wide = true;
    text += `${text === "" ? "{ " : ", "}${printedKey}: `;
    if (!wide && text.length > room) return undefined;
    const printed = flatText(item, oneLine, room - text.length - 2);
    if (printed === undefined) return undefined;
    text += printed;
  }
  return text === "" ? "{}" : `${text} }`;
};

/** Whether flat `text` fits from column `pos` with `trailing` columns after it (a width that needs non-ASCII text declines). */
const fitsText = (text: string, pos: number, trailing: number): boolean => {
  const end = pos + widthOf(text) + trailing;
  if (Number.isNaN(end)) throw new Decline();
  return end <= WIDTH;
};

/** Prints `value` at column `pos` of a line indented `indent`, followed by `trailing` columns: `print` of its node. */
const printValue = (value: unknown, oneLine: boolean, indent: number, pos: number, trailing: number, out: TextBuilder): void => {
  if (value instanceof OneLine) return printValue(value.value, true, indent, pos, trailing, out);
  const inner = container(value);
  if (inner === undefined) {
    out.push(literalText(value));
    return;
  }
  if (Array.isArray(inner)) printArray(inner as unknown[], oneLine, indent, pos, trailing, out);
  else printObject(inner as Record<string, unknown>, oneLine, indent, pos, trailing, out);
};

/** `printValue` of an object. */
const printObject = (inner: Record<string, unknown>, oneLine: boolean, indent: number, pos: number, trailing: number, out: TextBuilder): void => {
  const keys = Object.keys(inner);
  let last = keys.length - 1;
  while (last >= 0 && omitted(inner[keys[last]!])) last--;
  if (last < 0) {
    out.push("{}");
    return;
  }
  if (oneLine) {
    wide = false;
    const flat = flatText(inner, oneLine, WIDTH - pos - trailing);
    if (flat !== undefined && fitsText(flat, pos, trailing)) {
      out.push(flat);
      return;
    }
  }
  const pad = lineBreak(indent + 2);
  out.push("{");
  for (let i = 0; i <= last; i++) {
    const key = keys[i]!;
    const item = inner[key];
    if (omitted(item)) continue;
    const printedKey = JSON.stringify(key);
    out.push(pad);
    out.push(printedKey);
    out.push(": ");
    // A key's width (NaN for non-ASCII text) matters only where a group after it may print flat.
    printValue(item, oneLine, indent + 2, indent + 2 + widthOf(printedKey) + 2, i === last ? 0 : 1, out);
    if (i < last) out.push(",");
  }
  out.push(lineBreak(indent));
  out.push("}");
};

/** `printValue` of an array: a hole, or what JSON.stringify leaves out, is written as null. */
const printArray = (inner: readonly unknown[], oneLine: boolean, indent: number, pos: number, trailing: number, out: TextBuilder): void => {
  if (inner.length === 0) {
    out.push("[]");
    return;
  }
  wide = false;
  const flat = flatText(inner, oneLine, WIDTH - pos - trailing);
  if (flat !== undefined && fitsText(flat, pos, trailing)) {
    out.push(flat);
    return;
  }
  let numbers = true;
  for (let i = 0; i < inner.length && numbers; i++) numbers = typeof inner[i] === "number" && Number.isFinite(inner[i]);
  if (numbers) {
    fill(Array.from(inner, (item, i) => (i === inner.length - 1 ? literalText(item) : `${literalText(item)},`)), indent, out);
    return;
  }
  const pad = lineBreak(indent + 2);
  out.push("[");
  for (let i = 0; i < inner.length; i++) {
    const item = inner[i];
    out.push(pad);
    printValue(omitted(item) ? null : item, oneLine, indent + 2, indent + 2, i === inner.length - 1 ? 0 : 1, out);
    if (i < inner.length - 1) out.push(",");
  }
  out.push(lineBreak(indent));
  out.push("]");
};

/**
 * A JSON file's `data` (see `EmittedFile.data`) as prettier's json parser prints the text written
 * from it, or undefined where that is not certain: what `layoutJson` prints of that text, without
 * parsing it.
 */
export const layoutValue = (data: unknown): string | undefined => {
  try {
    const out = new TextBuilder();
    printValue(data, false, 0, 0, 0, out);
    out.push("\n");
    return out.text();
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
};

/** `file` in prettier's layout where treaty prints it without prettier (JSON), else undefined. */
export const directLayout = (file: Pick<EmittedFile, "contents" | "language" | "data">): string | undefined =>
  file.language !== "json" ? undefined : file.data !== undefined ? layoutValue(file.data) : layoutJson(file.contents);
