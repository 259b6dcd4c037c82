// Prettier's layout of the TypeScript treaty generates for validators (parser babel-ts, printWidth
// 100), without prettier: the validators are most of what a cold run formats. A piece of code
// (src/format/statements.ts) is parsed into a small syntax tree of the constructs the emitter
// writes, printed into prettier's documents the way prettier's estree printer builds them, and laid
// out by prettier's document printer (doc-printer.ts). Anything outside that subset is declined
// (undefined), and prettier formats the piece: a construct this file does not know, a comment
// anywhere but on its own line before a statement, text other than printable ASCII, and the
// layouts treaty does not print itself when they would break (a ternary but as a declaration's,
// an assignment's or a property's value, an assignment other than of an object, a chain of several
// calls, a hugged last argument, a function header).
// test/format/code-layout.test.ts compares the output with prettier's, on every piece of every
// emitted file and on random programs of the subset.

import {
  breakParent,
  canBreak,
  conditionalGroup,
  group,
  hardline,
  ifBreak,
  indent,
  indentIfBreak,
  join,
  line,
  printDoc,
  softline,
  Unsure,
  willBreak,
  type Doc,
} from "./doc-printer.js";
import { printKey, printNumber, printString } from "./json-layout.js";
import { leadingLineComments } from "./statements.js";

const WIDTH = 100;

/** Thrown where the text is outside the subset; `layoutCode` then declines. Not an Error: declining is common, a stack costly. */
class Decline {}

// ---------------------------------------------------------------------------------------------
// Tokens

type Token =
  | { readonly t: "name"; readonly v: string; readonly start: number; readonly end: number }
  | { readonly t: "string"; readonly v: string; readonly start: number; readonly end: number }
  | { readonly t: "number"; readonly v: string; readonly start: number; readonly end: number }
  | { readonly t: "punct"; readonly v: string; readonly start: number; readonly end: number }
  | { readonly t: "comment"; readonly v: string; readonly start: number; readonly end: number; readonly block: boolean };

const PUNCTUATORS = new Set([
  "===", "!==", "...", "**=", "&&=", "||=", "??=",
  "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "=>", "**",
  "{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "!", "?", ":", "=", ".", "|", "&", "^", "~",
]);
const STRING = /"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const NUMBER = /(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]?\d+)?(?![\w$.])/y;
const NAME = /[A-Za-z_$][\w$]*/y;

const tokenize = (text: string): Token[] => {
  // Text other than printable ASCII is declined where its width could matter: anywhere but in a
  // comment on its own line, which a hard line always follows.
  if (/[^\x20-\x7e\n]/.test(text) && /[^\x20-\x7e\n]/.test(text.replace(/^[ ]*(?:\/\/.*|\/\*[^]*?\*\/)[ ]*$/gm, ""))) throw new Decline();
  const tokens: Token[] = [];
  let at = 0;
  // test, not exec: exec makes a match object of each of a validator's million tokens.
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    return pattern.test(text) ? text.slice(at, pattern.lastIndex) : undefined;
  };
  while (at < text.length) {
    const c = text[at]!;
    if (c === " " || c === "\n") {
      at++;
      continue;
    }
    const start = at;
    if (text.startsWith("//", at)) {
      const end = text.indexOf("\n", at);
      at = end < 0 ? text.length : end;
      tokens.push({ t: "comment", v: text.slice(start, at), start, end: at, block: false });
      continue;
    }
    if (text.startsWith("/*", at)) {
      const end = text.indexOf("*/", at + 2);
      if (end < 0) throw new Decline();
      at = end + 2;
      tokens.push({ t: "comment", v: text.slice(start, at), start, end: at, block: true });
      continue;
    }
    let found: string | undefined;
    if (c === '"') {
      if ((found = match(STRING)) === undefined) throw new Decline();
      tokens.push({ t: "string", v: found, start, end: (at += found.length) });
    } else if (c >= "0" && c <= "9") {
      if ((found = match(NUMBER)) === undefined) throw new Decline();
      tokens.push({ t: "number", v: found, start, end: (at += found.length) });
    } else if ((found = match(NAME)) !== undefined) {
      tokens.push({ t: "name", v: found, start, end: (at += found.length) });
    } else {
      const three = text.slice(at, at + 3);
      const two = text.slice(at, at + 2);
      const punct = PUNCTUATORS.has(three) ? three : PUNCTUATORS.has(two) ? two : PUNCTUATORS.has(c) ? c : undefined;
      // `'`, `` ` ``, `#`, `@`, `\`: strings, templates and syntax outside the subset.
      if (punct === undefined) throw new Decline();
      tokens.push({ t: "punct", v: punct, start, end: (at += punct.length) });
    }
  }
  return tokens;
};

// ---------------------------------------------------------------------------------------------
// Syntax

type Expr =
  | { readonly k: "name"; readonly v: string }
  | { readonly k: "string"; readonly v: string }
  | { readonly k: "number"; readonly v: string }
  | { readonly k: "member"; readonly object: Expr; readonly property: string; readonly optional: boolean }
  | { readonly k: "index"; readonly object: Expr; readonly index: Expr }
  | { readonly k: "call"; readonly callee: Expr; readonly args: readonly Expr[] }
  | { readonly k: "new"; readonly callee: Expr; readonly typeArgument?: string; readonly args: readonly Expr[] }
  | { readonly k: "unary"; readonly op: string; readonly arg: Expr }
  | { readonly k: "update"; readonly op: string; readonly prefix: boolean; readonly arg: Expr }
  | { readonly k: "binary"; readonly op: string; readonly left: Expr; readonly right: Expr }
  | { readonly k: "conditional"; readonly test: Expr; readonly consequent: Expr; readonly alternate: Expr }
  | { readonly k: "assign"; readonly op: string; readonly left: Expr; readonly right: Expr }
  | { readonly k: "object"; readonly props: readonly Prop[]; readonly expanded: boolean }
  | { readonly k: "array"; readonly items: readonly Expr[] }
  /** `e as T`, `e satisfies T` (after a declaration's value only). */
  | { readonly k: "cast"; readonly e: Expr; readonly op: "as" | "satisfies"; readonly type: Type };

type Prop = { readonly key: string; readonly value: Expr; readonly shorthand: boolean } | { readonly spread: Expr };

/** A type annotation of the subset: names, `T[]`, unions of them, `x is T`; printed flat. */
type Type = string;

interface Leading {
  readonly comments: readonly string[];
  /** A blank line after each comment. */
  readonly blankAfter: readonly boolean[];
}

type Stmt = (
  | { readonly k: "expr"; readonly e: Expr }
  | { readonly k: "return"; readonly arg?: Expr }
  | { readonly k: "throw"; readonly arg: Expr }
  | { readonly k: "if"; readonly test: Expr; readonly consequent: Stmt; readonly alternate?: Stmt }
  | { readonly k: "block"; readonly body: readonly Stmt[] }
  | { readonly k: "var"; readonly kind: string; readonly id: string; readonly type?: Type; readonly init?: Expr; readonly exported?: boolean }
  | { readonly k: "for"; readonly init: Stmt & { k: "var" }; readonly test: Expr; readonly update: Expr; readonly body: Stmt }
  | { readonly k: "for-in"; readonly kind: string; readonly id: string; readonly object: Expr; readonly body: Stmt }
  | { readonly k: "switch"; readonly discriminant: Expr; readonly cases: readonly Case[] }
  | { readonly k: "break" }
  | { readonly k: "continue" }
  | { readonly k: "try"; readonly block: Stmt & { k: "block" }; readonly handler: Stmt & { k: "block" } }
  | {
      readonly k: "function";
      readonly exported: boolean;
      readonly async: boolean;
      readonly name: string;
      readonly params: readonly { readonly name: string; readonly type?: Type }[];
      readonly returns?: Type;
      readonly body: Stmt & { k: "block" };
    }
  | { readonly k: "alias"; readonly name: string; readonly value: Type }
  | {
      /** `import ... from "x";`, `export { ... } (from "x");`, `export * from "x";` */
      readonly k: "module";
      readonly keyword: "import" | "export";
      readonly type: boolean;
      /** `* as name`, `* ` (an export of all) or a default import: printed before the braces. */
      readonly standalone?: string;
      /** Names in braces, each as printed (`type a as b`); undefined: no braces. */
      readonly specifiers?: readonly string[];
      readonly source?: string;
    }
) & { leading?: Leading; blankAfter?: boolean };

interface Case {
  readonly test?: Expr;
  readonly body: readonly Stmt[];
  blankAfter?: boolean;
}

const BINARY_PRECEDENCE = new Map<string, number>([
  ["??", 1], ["||", 2], ["&&", 3], ["|", 4], ["^", 5], ["&", 6],
  ["==", 7], ["===", 7], ["!=", 7], ["!==", 7],
  ["<", 8], [">", 8], ["<=", 8], [">=", 8], ["in", 8], ["instanceof", 8],
  ["<<", 9], [">>", 9], [">>>", 9],
  ["+", 10], ["-", 10], ["*", 11], ["/", 11], ["%", 11], ["**", 12],
]);
const LOGICAL = new Set(["&&", "||", "??"]);
const SHIFTS = new Set(["<<", ">>", ">>>"]);
const KEYWORDS = new Set([
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "export", "extends",
  "finally", "for", "function", "if", "import", "in", "instanceof", "let", "new", "return", "super", "switch", "this", "throw",
  "try", "typeof", "var", "void", "while", "with", "yield", "async", "await", "of", "type", "interface", "enum", "declare",
]);

/** `a && (b && c)` as `(a && b) && c`, as prettier's parser postprocessing rebalances a logical chain. */
const rebalance = (e: Expr & { k: "binary" }): Expr & { k: "binary" } => {
  const right = e.right;
  if (!LOGICAL.has(e.op) || right.k !== "binary" || right.op !== e.op) return e;
  return rebalance({ k: "binary", op: e.op, left: rebalance({ k: "binary", op: e.op, left: e.left, right: right.left }), right: right.right });
};

const parse = (text: string, tokens: readonly Token[]): Stmt[] => {
  let at = 0;
  const peek = (offset = 0): Token | undefined => {
    let i = at;
    for (let n = 0; ; i++) {
      const token = tokens[i];
      if (token === undefined) return undefined;
      if (token.t === "comment") continue;
      if (n++ === offset) return token;
    }
  };
  /**
   * Where a blank line before the next token is one prettier keeps or drops by rules printed here:
   * before a statement or a `case`, and before a closing brace. Anywhere else it is declined.
   */
  let blankAllowed = true;
  /** The next token; a comment here (inside a statement) is outside the subset. */
  const next = (): Token => {
    const token = tokens[at++];
    if (token === undefined || token.t === "comment") throw new Decline();
    if (!blankAllowed && at > 1 && hasBlank(tokens[at - 2]!.end, token.start)) throw new Decline();
    blankAllowed = false;
    return token;
  };
  const hasBlank = (from: number, to: number): boolean => {
    const gap = text.slice(from, to);
    const first = gap.indexOf("\n");
    return first >= 0 && gap.indexOf("\n", first + 1) >= 0;
  };
  const is = (v: string, offset = 0): boolean => {
    const token = peek(offset);
    return token !== undefined && (token.t === "punct" || token.t === "name") && token.v === v;
  };
  const expect = (v: string): Token => {
    const token = next();
    if ((token.t !== "punct" && token.t !== "name") || token.v !== v) throw new Decline();
    return token;
  };
  const name = (): string => {
    const token = next();
    if (token.t !== "name" || KEYWORDS.has(token.v)) throw new Decline();
    return token.v;
  };
  /** Whether the source has a blank line after `offset`: a line holding only spaces before the next text. */
  const blankAfter = (offset: number): boolean => {
    let i = offset;
    while (text.charCodeAt(i) === 32) i++;
    if (text.charCodeAt(i) !== 10) return false;
    i++;
    while (text.charCodeAt(i) === 32) i++;
    return text.charCodeAt(i) === 10;
  };
  /** Whether only spaces stand between the line break before `offset` (or the start) and it. */
  const startsLine = (offset: number): boolean => {
    let i = offset - 1;
    while (i >= 0 && text.charCodeAt(i) === 32) i--;
    return i < 0 || text.charCodeAt(i) === 10;
  };
  /** Whether only spaces stand between `offset` and the next line break (or the end). */
  const endsLine = (offset: number): boolean => {
    let i = offset;
    while (text.charCodeAt(i) === 32) i++;
    return i >= text.length || text.charCodeAt(i) === 10;
  };
  const lastEnd = (): number => tokens[at - 1]!.end;

  /** The comments before the next statement, each on its own line. */
  const leading = (): Leading | undefined => {
    const comments: string[] = [];
    const blanks: boolean[] = [];
    while (tokens[at]?.t === "comment") {
      const comment = tokens[at]!;
      if (!startsLine(comment.start) || !endsLine(comment.end)) throw new Decline();
      comments.push(comment.v);
      blanks.push(blankAfter(comment.end));
      at++;
    }
    return comments.length === 0 ? undefined : { comments, blankAfter: blanks };
  };

  /**
   * A type; with `generic`, a name may take type arguments (`Record<string, unknown>`), each a name
   * or such a type again: a cast's type only, which `typeDoc` prints breakable, as prettier does.
   */
  const type = (generic = false): Type => {
    /** A name (`a.B` too) or string literal, or a union in parentheses, with any `[]` after it. */
    const one = (outer: boolean): string => {
      const token = next();
      let t: string;
      let union = false;
      if (token.t === "string") t = printString(token.v);
      else if (token.t === "punct" && token.v === "(") {
        const inner = type();
        expect(")");
        union = inner.includes(" | ");
        t = inner;
      } else if (token.t !== "name" || token.v === "typeof" || token.v === "keyof" || token.v === "import" || token.v === "infer") throw new Decline();
      else {
        t = token.v;
        while (is(".")) {
          next();
          t += `.${name()}`;
        }
        if (generic && is("<")) {
          next();
          const list = [type(true)];
          while (is(",")) {
            next();
            list.push(type(true));
          }
          expect(">");
          if (list.some((arg) => arg.includes(" | ") || arg.includes("\"") || arg.includes("["))) throw new Decline();
          t += `<${list.join(", ")}>`;
        }
      }
      let arrays = "";
      while (is("[") && is("]", 1)) {
        next();
        next();
        arrays += "[]";
      }
      if (is("<") || is("&") || is("=>")) throw new Decline();
      // Type arguments only on a type that is that name alone (`typeDoc` prints no array or union of them).
      if (t.includes("<") && (arrays !== "" || !outer || is("|"))) throw new Decline();
      // Parentheses are kept around a union that is an array's element; prettier drops them around a whole type, and in a union declines here.
      if (union && arrays === "" && !outer) throw new Decline();
      return union && arrays !== "" ? `(${t})${arrays}` : `${t}${arrays}`;
    };
    const parts = [one(true)];
    while (is("|")) {
      next();
      parts.push(one(false));
    }
    if (parts.length > 1 && parts.some((part) => part.includes(" | ") && !part.endsWith("]"))) throw new Decline();
    return parts.join(" | ");
  };

  const args = (): Expr[] => {
    expect("(");
    const list: Expr[] = [];
    while (!is(")")) {
      list.push(assignment());
      if (!is(")")) expect(",");
    }
    expect(")");
    return list;
  };

  const primary = (): Expr => {
    const token = next();
    if (token.t === "string") return { k: "string", v: token.v };
    if (token.t === "number") return { k: "number", v: token.v };
    if (token.t === "name") {
      if (token.v === "new") {
        let callee: Expr = { k: "name", v: name() };
        while (is(".")) {
          next();
          callee = { k: "member", object: callee, property: next().v, optional: false };
        }
        // One type argument that is a name (`new Set<string>(...)`), printed as it is.
        const named = peek(1);
        if (is("<") && named?.t === "name" && !KEYWORDS.has(named.v) && is(">", 2) && is("(", 3)) {
          next();
          const typeArgument = next().v;
          next();
          return { k: "new", callee, typeArgument, args: args() };
        }
        return { k: "new", callee, args: args() };
      }
      if (KEYWORDS.has(token.v)) throw new Decline();
      return { k: "name", v: token.v };
    }
    if (token.v === "(") {
      const inner = expression();
      // `(x as T)`, as the emitters write a cast to read a value: of a name, a member or a call.
      if (is("as")) {
        if (!["name", "member", "index", "call"].includes(inner.k)) throw new Decline();
        next();
        const cast: Expr = { k: "cast", e: inner, op: "as", type: type(true) };
        expect(")");
        // Read from (`(value as Record<string, unknown>)["key"]`): the one place the emitters write it.
        if (!is("[") && !is(".")) throw new Decline();
        return cast;
      }
      expect(")");
      return inner;
    }
    if (token.v === "[") {
      const items: Expr[] = [];
      while (!is("]")) {
        items.push(assignment());
        if (!is("]")) expect(",");
      }
      expect("]");
      // An array of numbers fills its lines (prettier's concise layout), not printed here.
      if (items.length > 0 && items.every((item) => item.k === "number" || (item.k === "unary" && (item.op === "-" || item.op === "+") && item.arg.k === "number"))) {
        throw new Decline();
      }
      return { k: "array", items };
    }
    if (token.v === "{") {
      const following = peek();
      const expanded = following !== undefined && text.slice(token.end, following.start).includes("\n");
      const props: Prop[] = [];
      while (!is("}")) {
        if (is("...")) {
          next();
          props.push({ spread: assignment() });
        } else {
          const key = next();
          if (key.t === "string") {
            expect(":");
            props.push({ key: printKey(key.v), value: assignment(), shorthand: false });
          } else if (key.t !== "name") throw new Decline();
          else if (is(":")) {
            next();
            props.push({ key: key.v, value: assignment(), shorthand: false });
          } else props.push({ key: key.v, value: { k: "name", v: key.v }, shorthand: true });
        }
        if (!is("}")) expect(",");
      }
      expect("}");
      return { k: "object", props, expanded };
    }
    throw new Decline();
  };

  const postfix = (): Expr => {
    let e = primary();
    for (;;) {
      if (is(".") || is("?.")) {
        const optional = next().v === "?.";
        if (optional && (is("(") || is("["))) throw new Decline();
        const property = next();
        if (property.t !== "name") throw new Decline();
        e = { k: "member", object: e, property: property.v, optional };
      } else if (is("[")) {
        next();
        const index = expression();
        expect("]");
        e = { k: "index", object: e, index };
      } else if (is("(")) {
        e = { k: "call", callee: e, args: args() };
      } else if (is("++") || is("--")) {
        e = { k: "update", op: next().v, prefix: false, arg: e };
      } else return e;
    }
  };

  const unary = (): Expr => {
    if (is("!") || is("-") || is("+") || is("~") || is("typeof") || is("delete")) {
      const op = next().v;
      return { k: "unary", op, arg: unary() };
    }
    if (is("++") || is("--")) return { k: "update", op: next().v, prefix: true, arg: unary() };
    return postfix();
  };

  /**
   * The operator at the next token: a shift is two or three `<` or `>` tokens with nothing between
   * them (the tokenizer keeps each `>` apart, for the `>>` that closes nested type arguments).
   */
  const operator = (): { readonly v: string; readonly tokens: number } | undefined => {
    const token = peek();
    if (token === undefined || (token.t !== "punct" && token.t !== "name")) return undefined;
    if (token.v !== "<" && token.v !== ">") return { v: token.v, tokens: 1 };
    let v = token.v;
    for (let end = token.end; v.length < (token.v === ">" ? 3 : 2); v += token.v) {
      const after = peek(v.length);
      if (after === undefined || after.t !== "punct" || after.start !== end) break;
      // `<<=`, `>>=` and `>>>=` (a `<=` or `>=` right after): assignments, outside the subset.
      if (after.v === `${token.v}=`) throw new Decline();
      if (after.v !== token.v) break;
      end = after.end;
    }
    return { v, tokens: v.length };
  };

  const binary = (minimum: number): Expr => {
    let left = unary();
    for (;;) {
      const op = operator();
      const precedence = op === undefined ? undefined : BINARY_PRECEDENCE.get(op.v);
      if (op === undefined || precedence === undefined || precedence < minimum) return left;
      if (op.v === "**" || op.v === "in" || op.v === "instanceof") throw new Decline();
      for (let i = 0; i < op.tokens; i++) next();
      const right = binary(precedence + 1);
      left = rebalance({ k: "binary", op: op.v, left, right });
    }
  };

  const conditional = (): Expr => {
    const test = binary(1);
    if (!is("?")) return test;
    next();
    const consequent = assignment();
    expect(":");
    return { k: "conditional", test, consequent, alternate: assignment() };
  };

  const assignment = (): Expr => {
    const left = conditional();
    if (is("=") || is("+=") || is("-=")) {
      if (left.k !== "name" && left.k !== "member" && left.k !== "index") throw new Decline();
      const op = next().v;
      return { k: "assign", op, left, right: assignment() };
    }
    return left;
  };
  const expression = (): Expr => {
    const e = assignment();
    if (is(",")) throw new Decline(); // a sequence
    return e;
  };

  const semicolon = (): void => {
    expect(";");
  };

  const declaration = (): Stmt & { k: "var" } => {
    const kind = next().v;
    const id = name();
    let annotation: Type | undefined;
    if (is(":")) {
      next();
      annotation = type();
    }
    let init: Expr | undefined;
    if (is("=")) {
      next();
      init = expression();
      // A cast binds tighter than most operators: only after an operand, where it casts the whole value.
      if ((is("as") || is("satisfies")) && !["object", "array", "name", "member", "index", "call", "new", "string", "number"].includes(init.k)) throw new Decline();
      while (is("as") || is("satisfies")) {
        const op = next().v as "as" | "satisfies";
        init = { k: "cast", e: init, op, type: op === "as" && is("const") ? (next(), "const") : type(true) };
      }
    }
    if (is(",")) throw new Decline();
    return { k: "var", kind, id, ...(annotation === undefined ? {} : { type: annotation }), ...(init === undefined ? {} : { init }) };
  };

  const block = (): Stmt & { k: "block" } => {
    expect("{");
    const body = statements("}");
    blankAllowed = true;
    expect("}");
    return { k: "block", body };
  };

  /** The body of an `if`, `else` or loop: a declaration there is a syntax error. */
  const clauseStatement = (): Stmt => {
    if (is("const") || is("let") || is("function") || is("export")) throw new Decline();
    return statement();
  };

  /** The rest of an import or an export of names, after its keyword. */
  const moduleDeclaration = (keyword: "import" | "export"): Stmt => {
    const type = is("type") && !is("from", 1) && !is(",", 1) && !is("=", 1);
    if (type) next();
    let standalone: string | undefined;
    let specifiers: string[] | undefined;
    if (is("*")) {
      next();
      if (is("as")) {
        next();
        standalone = `* as ${name()}`;
      } else if (keyword === "export") standalone = "*";
      else throw new Decline();
    } else if (keyword === "import" && !is("{")) {
      standalone = name();
      if (is(",")) throw new Decline(); // a default and named imports
    }
    if (is("{")) {
      next();
      specifiers = [];
      while (!is("}")) {
        const kind = is("type") && !is(",", 1) && !is("}", 1) && !is("as", 1) ? (next(), "type ") : "";
        const left = next();
        if (left.t !== "name") throw new Decline();
        let printed = `${kind}${left.v}`;
        if (is("as")) {
          next();
          const right = next();
          if (right.t !== "name") throw new Decline();
          printed += ` as ${right.v}`; // kept as written, `a as a` too
        }
        specifiers.push(printed);
        if (!is("}")) expect(",");
      }
      next();
    }
    let source: string | undefined;
    if (is("from")) {
      next();
      const from = next();
      if (from.t !== "string") throw new Decline();
      source = from.v;
    } else if (keyword === "import" || standalone !== undefined) throw new Decline();
    if (standalone === undefined && specifiers === undefined) throw new Decline();
    if (is("with") || is("assert")) throw new Decline();
    semicolon();
    return {
      k: "module",
      keyword,
      type,
      ...(standalone === undefined ? {} : { standalone }),
      ...(specifiers === undefined ? {} : { specifiers }),
      ...(source === undefined ? {} : { source }),
    };
  };

  const statement = (): Stmt => {
    const token = peek();
    if (token === undefined) throw new Decline();
    if (token.t === "punct") {
      if (token.v === "{") return block();
      if (token.v === ";") throw new Decline();
    }
    if (token.t === "name") {
      switch (token.v) {
        case "if": {
          next();
          expect("(");
          const test = expression();
          expect(")");
          const consequent = clauseStatement();
          if (is("else")) {
            next();
            return { k: "if", test, consequent, alternate: clauseStatement() };
          }
          return { k: "if", test, consequent };
        }
        case "return": {
          next();
          if (is(";")) {
            next();
            return { k: "return" };
          }
          const arg = expression();
          semicolon();
          return { k: "return", arg };
        }
        case "throw": {
          next();
          const arg = expression();
          semicolon();
          return { k: "throw", arg };
        }
        case "break":
        case "continue":
          next();
          semicolon();
          return { k: token.v };
        case "const":
        case "let": {
          const d = declaration();
          semicolon();
          return d;
        }
        case "for": {
          next();
          expect("(");
          if ((is("const") || is("let")) && is("in", 2)) {
            const kind = next().v;
            const id = name();
            expect("in");
            const object = expression();
            expect(")");
            return { k: "for-in", kind, id, object, body: clauseStatement() };
          }
          if (!is("let")) throw new Decline();
          const init = declaration();
          expect(";");
          const test = expression();
          expect(";");
          const update = expression();
          expect(")");
          return { k: "for", init, test, update, body: clauseStatement() };
        }
        case "switch": {
          next();
          expect("(");
          const discriminant = expression();
          expect(")");
          expect("{");
          const cases: Case[] = [];
          while (!is("}")) {
            if (tokens[at]?.t === "comment") throw new Decline();
            let test: Expr | undefined;
            blankAllowed = true;
            if (is("default")) next();
            else {
              expect("case");
              test = expression();
            }
            expect(":");
            const body = statements("case", "default", "}");
            const item: Case = { ...(test === undefined ? {} : { test }), body };
            item.blankAfter = blankAfter(lastEnd());
            cases.push(item);
          }
          blankAllowed = true;
          expect("}");
          return { k: "switch", discriminant, cases };
        }
        case "try": {
          next();
          const tried = block();
          expect("catch");
          if (is("(")) throw new Decline();
          const handler = block();
          if (is("finally")) throw new Decline();
          return { k: "try", block: tried, handler };
        }
        case "import":
          next();
          return moduleDeclaration("import");
        case "export":
        case "async":
        case "function": {
          const exported = token.v === "export";
          if (exported) next();
          if (exported && (is("{") || is("*") || (is("type") && (is("{", 1) || is("*", 1))))) return moduleDeclaration("export");
          if (exported && is("type")) {
            // `export type Name = Type;`, printed flat or declined.
            next();
            const alias = name();
            expect("=");
            const value = type();
            semicolon();
            return { k: "alias", name: alias, value };
          }
          if (exported && (is("const") || is("let"))) {
            const d = declaration();
            semicolon();
            return { ...d, exported: true };
          }
          const async = is("async");
          if (async) next();
          expect("function");
          const fname = name();
          expect("(");
          const params: { name: string; type?: Type }[] = [];
          while (!is(")")) {
            const pname = name();
            if (is(":")) {
              next();
              params.push({ name: pname, type: type() });
            } else params.push({ name: pname });
            if (!is(")")) expect(",");
          }
          expect(")");
          let returns: Type | undefined;
          if (is(":")) {
            next();
            // `x is T`, a type predicate.
            returns = peek(1)?.v === "is" ? `${name()} ${next().v} ${type()}` : type();
          }
          return { k: "function", exported, async, name: fname, params, ...(returns === undefined ? {} : { returns }), body: block() };
        }
      }
      if (KEYWORDS.has(token.v) && token.v !== "delete" && token.v !== "typeof") throw new Decline();
    }
    const e = expression();
    if (e.k === "object") throw new Decline();
    semicolon();
    return { k: "expr", e };
  };

  /** Statements up to one of `ends` (or the end of the text), each with its comments and blank line. */
  const statements = (...ends: string[]): Stmt[] => {
    const list: Stmt[] = [];
    for (;;) {
      blankAllowed = true;
      const comments = leading();
      const token = peek();
      if (token === undefined || ((token.t === "punct" || token.t === "name") && ends.includes(token.v))) {
        if (comments !== undefined) throw new Decline(); // a comment no statement follows
        return list;
      }
      const s = statement();
      if (comments !== undefined) s.leading = comments;
      s.blankAfter = blankAfter(lastEnd());
      list.push(s);
    }
  };

  const program = statements();
  if (at !== tokens.length) throw new Decline();
  return program;
};

// ---------------------------------------------------------------------------------------------
// Documents, as prettier's estree printer builds them

/**
 * Where an expression is printed. `inlineMembers`: its first ancestor that is not a member access is
 * a `new` it is the callee of, or an assignment to a member (prettier's printMemberExpression then
 * never breaks before a `.name`).
 */
type Parent = { readonly node: Expr | Stmt | "spread"; readonly key: string; readonly inlineMembers?: boolean };

const isBinary = (e: Expr): e is Expr & { k: "binary" } => e.k === "binary";

/** Prettier's isSimpleType for the types `type` reads: a keyword or a name without type arguments. */
const isSimpleType = (t: string): boolean => /^[\w$.]+$/.test(t);

/**
 * A type read with type arguments as prettier prints it (printTypeParameters): one argument that is
 * simple hugged (`Array<number>`), more in a group that breaks one a line (no trailing comma).
 */
const typeDoc = (t: Type): Doc => {
  const open = t.indexOf("<");
  if (open < 0) return t;
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = start; i < t.length - 1; i++) {
    if (t[i] === "<") depth++;
    else if (t[i] === ">") depth--;
    else if (t[i] === "," && depth === 0) {
      args.push(t.slice(start, i).trim());
      start = i + 1;
    }
  }
  args.push(t.slice(start, t.length - 1).trim());
  const head = t.slice(0, open + 1);
  if (args.length === 1 && isSimpleType(args[0]!)) return [head, args[0]!, ">"];
  return group([head, indent([softline, join([",", line], args.map(typeDoc))]), softline, ">"]);
};

/** Prettier's shouldFlatten: `a op1 b op2 c` printed as one chain. */
const shouldFlatten = (parentOp: string, op: string): boolean => {
  if (BINARY_PRECEDENCE.get(op) !== BINARY_PRECEDENCE.get(parentOp)) return false;
  if (parentOp === "**") return false;
  const equality = (o: string): boolean => o === "==" || o === "===" || o === "!=" || o === "!==";
  if (equality(parentOp) && equality(op)) return false;
  const multiplicative = (o: string): boolean => o === "*" || o === "/" || o === "%";
  if ((op === "%" && multiplicative(parentOp)) || (parentOp === "%" && multiplicative(op))) return false;
  if (op !== parentOp && multiplicative(op) && multiplicative(parentOp)) return false;
  // x < y > z --> (x < y) > z (prettier 3.10)
  if (parentOp === ">" && op === "<") return false;
  // x << y << z --> (x << y) << z
  if (SHIFTS.has(parentOp) && SHIFTS.has(op)) return false;
  return true;
};

/** Prettier's needsParens, for the subset. */
const needsParens = (e: Expr, parent: Parent): boolean => {
  const p = parent.node;
  // A spread's argument (prettier's SpreadElement parent): any operator expression is parenthesized.
  if (typeof p === "string") return e.k === "binary" || e.k === "conditional" || e.k === "assign" || e.k === "cast";
  if (!("k" in p)) return false;
  switch (e.k) {
    case "binary": {
      if (p.k === "update") return true;
      if (p.k === "unary") return true;
      if ((p.k === "call" || p.k === "new") && parent.key === "callee") return true;
      if ((p.k === "member" || p.k === "index") && parent.key === "object") return true;
      if (p.k === "conditional") return e.op === "??";
      if (p.k === "binary") {
        if (LOGICAL.has(e.op) && LOGICAL.has(p.op)) return p.op !== e.op;
        const precedence = BINARY_PRECEDENCE.get(e.op)!;
        const parentPrecedence = BINARY_PRECEDENCE.get(p.op)!;
        if (parentPrecedence > precedence) return true;
        if (parent.key === "right" && parentPrecedence === precedence) return true;
        if (parentPrecedence === precedence && !shouldFlatten(p.op, e.op)) return true;
        if (parentPrecedence < precedence && e.op === "%" && (p.op === "+" || p.op === "-")) return true;
        // Prettier's isBitwiseOperator.
        if (p.op === "|" || p.op === "^" || p.op === "&" || SHIFTS.has(p.op)) return true;
      }
      return false;
    }
    case "conditional":
      if (p.k === "unary" || p.k === "binary") return true;
      if ((p.k === "call" || p.k === "new") && parent.key === "callee") return true;
      if (p.k === "conditional") return parent.key === "test";
      if ((p.k === "member" || p.k === "index") && parent.key === "object") return true;
      return false;
    case "assign":
      if (p.k === "expr" || p.k === "assign") return false;
      if (p.k === "for" && parent.key === "update") return false;
      return true;
    case "unary":
      if (p.k === "unary") return (e.op === "+" || e.op === "-") && e.op === p.op;
      if ((p.k === "member" || p.k === "index") && parent.key === "object") return true;
      if ((p.k === "call" || p.k === "new") && parent.key === "callee") return true;
      if (p.k === "binary" && p.op === "**" && parent.key === "left") return true;
      return false;
    case "update":
      if (p.k === "unary") return e.prefix && ((e.op === "++" && p.op === "+") || (e.op === "--" && p.op === "-"));
      if ((p.k === "member" || p.k === "index") && parent.key === "object") return true;
      if ((p.k === "call" || p.k === "new") && parent.key === "callee") return true;
      return false;
    case "number":
      return (p.k === "member" || p.k === "index") && parent.key === "object";
    case "object":
      return false;
    case "cast":
      // Prettier's needsParens of a TSAsExpression, for the parents of the subset.
      if ((p.k === "member" || p.k === "index") && parent.key === "object") return true;
      if ((p.k === "call" || p.k === "new") && parent.key === "callee") return true;
      return p.k === "unary" || p.k === "update" || p.k === "binary" || p.k === "conditional";
    default:
      return false;
  }
};

const isMemberish = (e: Expr): boolean => e.k === "member" || e.k === "index";

/** `.name`, `[0]` or `[key]` (prettier's printMemberLookup): a lookup of anything but a number may break inside its brackets. */
const lookupOf = (e: Expr & { k: "member" | "index" }, inlineMembers = false): Doc => {
  if (e.k === "member") return [e.optional ? "?." : ".", e.property];
  // Prettier looks for the first ancestor that is not a member access through the brackets too.
  const index = expr(e.index, { node: e, key: "property", inlineMembers });
  return e.index.k === "number" ? ["[", index, "]"] : group(["[", indent([softline, index]), softline, "]"]);
};

/** An argument prettier hugs or expands (an object or array that holds something, a function). */
const couldExpand = (e: Expr): boolean => (e.k === "object" && e.props.length > 0) || (e.k === "array" && e.items.length > 0);

/** Prettier's printCallArguments, for arguments of the subset (no functions). */
const printArguments = (call: Expr & { k: "call" | "new" }): Doc => {
  const { args } = call;
  if (args.length === 0) return "()";
  const printed = args.map((arg, i) => {
    const doc = expr(arg, { node: call, key: "arguments" });
    return i === args.length - 1 ? doc : [doc, ",", line];
  });
  const allBrokenOut = (): Doc => group(["(", indent([line, ...printed]), ifBreak(","), line, ")"], { shouldBreak: true });
  const last = args[args.length - 1]!;
  const penultimate = args.length > 1 ? args[args.length - 2] : undefined;
  // The last argument hugged (prettier's shouldExpandLastArg): an object or array, unless the one before is one too.
  if (couldExpand(last) && (penultimate === undefined || penultimate.k !== last.k)) {
    const head = printed.slice(0, -1);
    if (head.some(willBreak)) return allBrokenOut();
    const hugged = expr(last, { node: call, key: "arguments" });
    if (willBreak(hugged)) return [breakParent, conditionalGroup([["(", ...head, group(hugged, { shouldBreak: true }), ")"], allBrokenOut()])];
    return conditionalGroup([["(", ...head, hugged, ")"], ["(", ...head, group(hugged, { shouldBreak: true }), ")"], allBrokenOut()]);
  }
  return group(["(", indent([softline, ...printed]), ifBreak(","), softline, ")"], { shouldBreak: printed.some(willBreak) });
};

/** The parts of a chain of binary operators of one precedence (prettier's printBinaryishExpressions). */
const binaryParts = (e: Expr & { k: "binary" }, parent: Parent, insideParens: boolean): Doc[] => {
  let parts: Doc[];
  // Flattened by precedence alone: the left operand of a chain is never parenthesized.
  if (isBinary(e.left) && shouldFlatten(e.op, e.left.op)) {
    parts = binaryParts(e.left, { node: e, key: "left" }, insideParens);
  } else parts = [group(expr(e.left, { node: e, key: "left" }))];
  // An object or array on the right of `&&` (prettier's shouldInlineLogicalExpression) is laid out otherwise.
  if (LOGICAL.has(e.op) && couldExpand(e.right)) throw new Decline();
  const right: Doc = [e.op, line, expr(e.right, { node: e, key: "right" })];
  const p = parent.node;
  const parentType = typeof p === "string" ? p : "k" in p ? (p.k === "binary" ? (LOGICAL.has(p.op) ? "logical" : "binary") : p.k) : "";
  const type = LOGICAL.has(e.op) ? "logical" : "binary";
  const childType = (x: Expr): string => (x.k === "binary" ? (LOGICAL.has(x.op) ? "logical" : "binary") : x.k);
  const shouldGroup = !(insideParens && type === "logical") && parentType !== type && childType(e.left) !== type && childType(e.right) !== type;
  parts.push(" ", shouldGroup ? group(right) : right);
  return parts;
};

/** A binary expression (prettier's printBinaryishExpression), for the parents of the subset. */
const printBinary = (e: Expr & { k: "binary" }, parent: Parent): Doc => {
  const p = parent.node;
  const insideParens = typeof p !== "string" && "k" in p && (p.k === "if" || p.k === "switch") && parent.key !== "body";
  const parts = binaryParts(e, parent, insideParens);
  if (insideParens) return parts;
  if (typeof p !== "string" && "k" in p) {
    if (((p.k === "call" || p.k === "new") && parent.key === "callee") || p.k === "unary" || (p.k === "member" && parent.key === "object")) {
      return group([indent([softline, ...parts]), softline]);
    }
    const shouldNotIndent = p.k === "return" || p.k === "throw" || (p.k === "for" && parent.key !== "body");
    // The test of a ternary, which breaks only where prettier does not indent it (see the ternary's case).
    if (p.k === "conditional") return group(parts);
    // An object or array on the right (shouldInlineLogicalExpression) is declined by `primary`.
    const shouldIndentIfInlining = p.k === "assign" || p.k === "var" || (p.k === "object" && parent.key === "value");
    if (shouldNotIndent || shouldIndentIfInlining) return group(parts);
  }
  const rest = parts.slice(1);
  return group([parts[0]!, indent(rest)]);
};

const expr = (e: Expr, parent: Parent): Doc => {
  const doc = exprInner(e, parent);
  return needsParens(e, parent) ? ["(", doc, ")"] : doc;
};

const exprInner = (e: Expr, parent: Parent): Doc => {
  switch (e.k) {
    case "name":
      return e.v;
    case "string":
      return printString(e.v);
    case "number":
      return printNumber(e.v);
    case "member": {
      const p = parent.node;
      const direct = typeof p !== "string" && (p.k === "member" || p.k === "index");
      const inline =
        parent.inlineMembers === true ||
        (e.object.k === "name" && !direct) ||
        (typeof p !== "string" && (p.k === "assign" || p.k === "var") && e.object.k === "call" && e.object.args.length > 0);
      const lookup = lookupOf(e, parent.inlineMembers === true);
      return [expr(e.object, { node: e, key: "object", inlineMembers: parent.inlineMembers === true }), inline ? lookup : group(indent([softline, lookup]))];
    }
    case "index":
      return [expr(e.object, { node: e, key: "object", inlineMembers: parent.inlineMembers === true }), lookupOf(e, parent.inlineMembers === true)];
    case "call": {
      const callee = e.callee;
      if (callee.k === "call") throw new Decline(); // a curried call
      if (callee.k === "name" && (callee.v === "require" || callee.v === "define" || callee.v === "Boolean")) throw new Decline();
      if (isMemberish(callee)) {
        // A member chain (prettier's printMemberChain): with one call, at its end, one group of the
        // head and every lookup as written (its `oneLine`); more calls are laid out by rules not printed here.
        const lookups: Doc[] = [];
        let head: Expr = callee;
        let last: Expr = e;
        while (head.k === "member" || head.k === "index") {
          lookups.unshift(lookupOf(head));
          last = head;
          head = head.object;
        }
        if (head.k === "call") throw new Decline();
        return group([expr(head, { node: last, key: "object" }), ...lookups, printArguments(e)]);
      }
      return [expr(callee, { node: e, key: "callee" }), printArguments(e)];
    }
    case "new":
      return ["new ", expr(e.callee, { node: e, key: "callee", inlineMembers: true }), e.typeArgument === undefined ? "" : `<${e.typeArgument}>`, printArguments(e)];
    case "unary":
      return [e.op, /[a-z]$/.test(e.op) ? " " : "", expr(e.arg, { node: e, key: "argument" })];
    case "update":
      return e.prefix ? [e.op, expr(e.arg, { node: e, key: "argument" })] : [expr(e.arg, { node: e, key: "argument" }), e.op];
    case "binary":
      return printBinary(e, parent);
    case "conditional": {
      // A nested one is declined (prettier lays out a chain of them by its own rules).
      if (e.consequent.k === "conditional" || e.alternate.k === "conditional") throw new Decline();
      // Prettier's printTernary where its parent is neither a ternary nor a member or callee: each
      // branch aligned by 2 (an indent, at these options). It is printed broken only as the value of
      // an object property, a declaration or an assignment, or spread into an object, where a binary
      // test inside is grouped without indent (printBinaryishExpression's shouldNotIndent); elsewhere
      // flat, or declined.
      const p = parent.node;
      const breakable =
        p === "spread" || (typeof p !== "string" && "k" in p && ((p.k === "object" && parent.key === "value") || (p.k === "var" && parent.key === "init") || (p.k === "assign" && parent.key === "right")));
      return group(
        [
          expr(e.test, { node: e, key: "test" }),
          indent([line, "? ", indent(expr(e.consequent, { node: e, key: "consequent" })), line, ": ", indent(expr(e.alternate, { node: e, key: "alternate" }))]),
        ],
        breakable ? {} : { flatOnly: true },
      );
    }
    case "assign": {
      const inlineMembers = e.left.k !== "name";
      if (e.right.k === "assign") throw new Decline(); // a chain of assignments
      const left = expr(e.left, { node: e, key: "left", inlineMembers });
      return printAssignment(left, ` ${e.op}`, e.right, expr(e.right, { node: e, key: "right", inlineMembers }), false);
    }
    case "object": {
      if (e.props.length === 0) return "{}";
      const props = e.props.map((prop) =>
        "spread" in prop
          ? ["...", expr(prop.spread, { node: "spread", key: "argument" })]
          : prop.shorthand
            ? prop.key
            : printAssignment(prop.key, ":", prop.value, expr(prop.value, { node: e, key: "value" }), true),
      );
      return group(["{", indent([line, ...join([",", line], props)]), ifBreak(","), line, "}"], { shouldBreak: e.expanded });
    }
    case "cast": {
      // Prettier's printBinaryCastExpression: the object of a member or the callee of a call breaks inside its parentheses.
      const cast: Doc[] = [expr(e.e, { node: e, key: "expression" }), ` ${e.op} `, typeDoc(e.type)];
      const p = parent.node;
      const head = typeof p !== "string" && "k" in p && (((p.k === "member" || p.k === "index") && parent.key === "object") || ((p.k === "call" || p.k === "new") && parent.key === "callee"));
      return head ? group([indent([softline, ...cast]), softline]) : cast;
    }
    case "array": {
      if (e.items.length === 0) return "[]";
      // Prettier's printArray: broken when every element is an object (or every one an array) of more than one entry.
      const shouldBreak =
        e.items.length > 1 &&
        e.items.every(
          (item, i) =>
            (item.k === "object" || item.k === "array") &&
            (i === e.items.length - 1 || e.items[i + 1]!.k === item.k) &&
            (item.k === "object" ? item.props.length : item.items.length) > 1,
        );
      const items = e.items.map((item) => group(expr(item, { node: e, key: "elements" })));
      return group(["[", indent([softline, ...join([",", line], items), ifBreak(",")]), softline, "]"], { shouldBreak });
    }
  }
};

const isBooleanLiteral = (e: Expr): boolean => e.k === "name" && (e.v === "true" || e.v === "false");
const isLiteral = (e: Expr): boolean => e.k === "string" || e.k === "number" || (e.k === "name" && (e.v === "true" || e.v === "false" || e.v === "null"));
const isIdentifier = (e: Expr): boolean => e.k === "name" && !isLiteral(e);

/** Prettier's isLoneShortArgument (a quarter of the line width). */
const isLoneShortArgument = (e: Expr): boolean => {
  const threshold = WIDTH * 0.25;
  if (isIdentifier(e)) return (e as { v: string }).v.length <= threshold;
  if (e.k === "unary") return (e.op === "-" || e.op === "+") && e.arg.k === "number" ? true : isLoneShortArgument(e.arg);
  if (e.k === "string") return printString(e.v).length <= threshold;
  if (e.k === "call" && e.args.length === 0 && e.callee.k === "name") return e.callee.v.length <= threshold - 2;
  return isLiteral(e);
};

/** Prettier's isPoorlyBreakableMemberOrCallChain: names, members and calls of no argument or one short one. */
const isPoorlyBreakable = (e: Expr, deep = false): boolean => {
  if (e.k === "call") {
    // A chain of several calls has its own layout (declined); one call on a member is not labelled a chain.
    if (!(e.args.length === 0 || (e.args.length === 1 && isLoneShortArgument(e.args[0]!)))) return false;
    return isPoorlyBreakable(e.callee, true);
  }
  if (e.k === "member" || e.k === "index") return isPoorlyBreakable(e.object, true);
  return deep && isIdentifier(e);
};

/**
 * `left op right` in the layout prettier's chooseLayout picks (src/language-js/print/assignment.js)
 * for the subset: a declaration, an assignment or an object property (`property`).
 */
const printAssignment = (left: Doc, op: string, right: Expr, rightDoc: Doc, property: boolean): Doc => {
  const leftBreaks = canBreak(left);
  // A key narrower than the indentation plus three: prettier does not break after it.
  const shortKey = property && typeof left === "string" && left.length < 2 + 3;
  let layout: "break-after-operator" | "never-break-after-operator" | "fluid";
  const breaksAfterOperator = (): boolean => {
    if (right.k === "binary" && !(LOGICAL.has(right.op) && couldExpand(right.right))) return true;
    if (right.k === "conditional") return right.test.k === "binary" && !(LOGICAL.has(right.test.op) && couldExpand(right.test.right));
    if (shortKey) return false;
    let node: Expr = right;
    while (node.k === "unary") node = node.arg;
    return node.k === "string" || isPoorlyBreakable(node);
  };
  if (breaksAfterOperator()) layout = "break-after-operator";
  else if (!leftBreaks && (shortKey || isBooleanLiteral(right) || right.k === "number")) layout = "never-break-after-operator";
  else layout = "fluid";
  switch (layout) {
    case "break-after-operator":
      return group([group(left), op, group(indent([line, rightDoc]))]);
    case "never-break-after-operator":
      return group([group(left), op, " ", rightDoc]);
    case "fluid": {
      const id = Symbol("assignment");
      return group([group(left), op, group(indent(line), { id }), indentIfBreak(rightDoc, id)]);
    }
  }
};

/** Prettier's printReturnOrThrowArgument. */
const returnArgument = (s: Stmt & { k: "return" | "throw" }, arg: Expr): Doc => {
  const doc = expr(arg, { node: s, key: "argument" });
  if (arg.k === "binary") return group([ifBreak("("), indent([softline, doc]), softline, ifBreak(")")]);
  return doc;
};

/** `body` of an `if`, `for` or `for-in` (prettier's adjustClause). */
const clause = (body: Stmt, forceSpace = false, compact = false): Doc =>
  body.k === "block" || forceSpace ? [" ", stmt(body, compact)] : indent([line, stmt(body)]);

/** Prettier's printComment for a comment on its own line. */
const comment = (text: string): Doc => {
  if (!text.startsWith("/*")) return text.trimEnd();
  const lines = text.slice(2, -2).split("\n");
  // An indentable block comment (every line a `*` line) is re-indented; any other is kept as written.
  if (lines.length > 1 && `*${text.slice(2, -2)}*`.split("\n").every((l) => l.trimStart().startsWith("*"))) {
    return ["/*", join(hardline, lines.map((l, i) => (i === 0 ? l.trimEnd() : ` ${i < lines.length - 1 ? l.trim() : l.trimStart()}`))), "*/"];
  }
  if (text.includes("\n")) throw new Decline(); // printed with the original's indentation
  return text;
};

const withComments = (s: Stmt, doc: Doc): Doc => {
  if (s.leading === undefined) return doc;
  const parts: Doc[] = [];
  s.leading.comments.forEach((text, i) => {
    parts.push(comment(text), hardline);
    if (s.leading!.blankAfter[i]) parts.push(hardline);
  });
  parts.push(doc);
  return parts;
};

const sequence = (list: readonly Stmt[]): Doc => {
  const parts: Doc[] = [];
  list.forEach((s, i) => {
    parts.push(withComments(s, stmt(s)));
    if (i < list.length - 1) {
      parts.push(hardline);
      if (s.blankAfter) parts.push(hardline);
    }
  });
  return parts;
};

const declarationDoc = (s: Stmt & { k: "var" }, semicolon = ""): Doc => {
  const left = s.type === undefined ? s.id : `${s.id}: ${s.type}`;
  if (s.init === undefined) return group([s.kind, " ", left, semicolon]);
  const init = s.init;
  if (init.k === "assign") throw new Decline(); // a chain of assignments
  return group([s.kind, " ", printAssignment(left, " =", init, expr(init, { node: s, key: "init" }), false), semicolon]);
};

/**
 * One statement. `compact`: an empty block prints `{}` (the body of a function, a `for` or a `catch`),
 * else `{` and `}` on two lines, as prettier's printBlock does.
 */
const stmt = (s: Stmt, compact = false): Doc => {
  switch (s.k) {
    case "expr":
      return [expr(s.e, { node: s, key: "expression" }), ";"];
    case "return":
      return s.arg === undefined ? "return;" : ["return ", returnArgument(s, s.arg), ";"];
    case "throw":
      return ["throw ", returnArgument(s, s.arg), ";"];
    case "break":
      return "break;";
    case "continue":
      return "continue;";
    case "block":
      if (s.body.length === 0) return compact ? "{}" : ["{", hardline, "}"];
      return ["{", indent([hardline, sequence(s.body)]), hardline, "}"];
    case "var":
      // Prettier's group holds the semicolon.
      return s.exported ? ["export ", declarationDoc(s, ";")] : declarationDoc(s, ";");
    case "if": {
      const test = s.test;
      const testDoc = expr(test, { node: s, key: "test" });
      // `!(a && b)` and `!!(a && b)` are not wrapped (prettier's shouldInlineCondition).
      let negated: Expr = test;
      if (negated.k === "unary" && negated.op === "!") {
        negated = negated.arg;
        if (negated.k === "unary" && negated.op === "!") negated = negated.arg;
      }
      const inline = test.k === "unary" && test.op === "!" && negated.k === "binary" && LOGICAL.has(negated.op);
      const condition = inline ? testDoc : group([indent([softline, testDoc]), softline]);
      const opening = group(["if (", condition, ")", clause(s.consequent)]);
      if (s.alternate === undefined) return opening;
      const block = s.consequent.k === "block";
      return [opening, block ? " " : hardline, "else", group(clause(s.alternate, s.alternate.k === "if"))];
    }
    case "for": {
      const body = clause(s.body, false, true);
      return group([
        "for (",
        group([
          indent([softline, declarationDoc(s.init), ";", line, expr(s.test, { node: s, key: "test" }), ";", line, expr(s.update, { node: s, key: "update" })]),
          softline,
        ]),
        ")",
        body,
      ]);
    }
    case "for-in":
      return group(["for (", s.kind, " ", s.id, " in ", expr(s.object, { node: s, key: "right" }), ")", clause(s.body)]);
    case "switch": {
      const cases = s.cases.map((c, i) => {
        const head: Doc = c.test === undefined ? "default:" : ["case ", expr(c.test, { node: s, key: "test" }), ":"];
        const body = c.body.length === 0 ? "" : c.body.length === 1 && c.body[0]!.k === "block" ? [" ", sequence(c.body)] : indent([hardline, sequence(c.body)]);
        const after: Doc = i < s.cases.length - 1 ? [hardline, c.blankAfter ? hardline : ""] : "";
        return [head, body, after];
      });
      return [
        group(["switch (", indent([softline, expr(s.discriminant, { node: s, key: "discriminant" })]), softline, ")"]),
        " {",
        cases.length > 0 ? indent([hardline, ...cases]) : "",
        hardline,
        "}",
      ];
    }
    case "try":
      return ["try ", stmt(s.block), " catch ", stmt(s.handler, true)];
    case "alias":
      // A union that breaks is laid out by rules not printed here.
      return group(["export type ", s.name, " = ", s.value, ";"], { flatOnly: true });
    case "module": {
      // Prettier's printModuleSpecifiers: names in braces break as a group, but one name alone never does.
      const parts: Doc[] = [s.keyword, s.type ? " type" : "", " "];
      if (s.standalone !== undefined) parts.push(s.standalone === "*" ? "*" : s.standalone);
      const names = s.specifiers;
      if (names !== undefined) {
        if (s.standalone !== undefined) parts.push(", ");
        if (names.length === 0) parts.push("{}");
        else if (names.length === 1 && s.standalone === undefined) parts.push(`{ ${names[0]} }`);
        else parts.push(group(["{", indent([line, ...join([",", line], names)]), ifBreak(","), line, "}"]));
      }
      if (s.source !== undefined) parts.push(" from ", printString(s.source));
      parts.push(";");
      return parts;
    }
    case "function": {
      const params = s.params.map((p) => (p.type === undefined ? p.name : `${p.name}: ${p.type}`)).join(", ");
      const head = `${s.exported ? "export " : ""}${s.async ? "async " : ""}function ${s.name}(${params})${s.returns === undefined ? "" : `: ${s.returns}`} {`;
      // A header that does not fit is broken by rules not printed here.
      if (head.length > WIDTH) throw new Decline();
      return [head.slice(0, -2), " ", stmt(s.body, true)];
    }
  }
};

// One import or export of names on one line, as the file builder writes them: prettier leaves such
// a line as it is when it fits, so it needs no syntax tree (every generated file has several; at
// 1,000 contracts laying them out cost 2 s of a cold run).
const WIRING = /^(?:import (type )?\{ ([^{}]+) \} from "[^"\\]*"|import \* as [A-Za-z_$][\w$]* from "[^"\\]*"|export \* (?:as [A-Za-z_$][\w$]* )?from "[^"\\]*"|export (type )?\{ ([^{}]+) \}(?: from "[^"\\]*")?);\n?$/;
const SPECIFIER = /^(type )?([A-Za-z_$][\w$]*)(?: as ([A-Za-z_$][\w$]*))?$/;

/**
 * `text` as it is (with a newline) when it is a line of `WIRING` that prettier prints unchanged,
 * after any line comments right above it (a file's header), else undefined.
 */
const wiringLine = (text: string): string | undefined => {
  const { comments, rest } = leadingLineComments(text);
  const line = rest.endsWith("\n") ? rest.slice(0, -1) : rest;
  if (line.includes("\n") || line.length > WIDTH || !/^[\x20-\x7e]*$/.test(line)) return undefined;
  const match = WIRING.exec(line);
  if (match === null) return undefined;
  const typeOnly = match[1] ?? match[3];
  const list = match[2] ?? match[4];
  for (const specifier of list === undefined ? [] : list.split(", ")) {
    const parts = SPECIFIER.exec(specifier);
    if (parts === null || (parts[1] !== undefined && typeOnly !== undefined) || KEYWORDS.has(parts[2]!)) return undefined;
    // `a as a`, and a keyword as the local name: what prettier does with them is not this file's to guess.
    if (parts[3] !== undefined && (parts[3] === parts[2] || KEYWORDS.has(parts[3]))) return undefined;
  }
  return `${comments}${line}\n`;
};

/**
 * `text` (one or more top-level statements, as src/format/statements.ts cuts a file) as prettier
 * prints it; undefined where it is outside the subset this file prints (see the head of the file).
 */
export const layoutCode = (text: string): string | undefined => {
  const wiring = wiringLine(text);
  if (wiring !== undefined) return wiring;
  try {
    const tokens = tokenize(text);
    const shape = text.length <= SHAPED ? shapeOf(text, tokens) : undefined;
    const known = shape && shapes.get(shape.key);
    // The same number of tokens put back: two strings side by side (no program) read as one otherwise.
    if (known !== undefined && known.length === shape!.names.length + 1) return named(known, shape!.names);
    const program = parse(text, tokens);
    if (program.length === 0) return undefined;
    const laidOut = `${printDoc(sequence(program), WIDTH)}\n`;
    if (shape !== undefined) remember(shape, laidOut);
    return laidOut;
  } catch (error) {
    if (error instanceof Decline || error instanceof Unsure) return undefined;
    throw error;
  }
};

// ---------------------------------------------------------------------------------------------
// Layouts by shape
//
// Generated code repeats itself under other names, bounds and messages: a wide contract's
// validators are thousands of pieces alike but for the field they check (`f142.length <= 65`,
// `"/f142"`). Such pieces have one layout, those tokens put back: this file reads a name's text only
// to tell keywords and a few words (`typeof`, `require`, `true`, ...) from other names, none of
// which holds a digit, `_` or `$`, and otherwise only its length; an integer, and a string with no
// escape or single quote outside a key, it prints as written and measures. So a piece's shape is its
// text with each such token replaced by as many `#` (a name), `@` (an integer) or `` ` `` (a
// string), none of which a piece holds outside a string or comment, and a piece laid out once
// gives the layout of every piece of its shape. test/format/code-layout.test.ts holds shapes to
// prettier on renamed copies of every piece it checks.

/** Pieces of at most this many characters are kept by shape (a wide contract's root check is a megabyte, alike to nothing). */
const SHAPED = 16 * 1024;
/** Characters of shapes kept, at most: then they start over (a few megabytes, with their layouts). */
const SHAPES_HELD = 8 * 2 ** 20;
const RENAMED = /[\d_$]/;
const INTEGER = /^\d+$/;

/**
 * The mark of `tokens[i]` where a shape does not hold it as it is: `#` for a name, `@` for an
 * integer, `` ` `` for a string printed as written (no escape, no single quote: printString keeps it)
 * that is not a key (printKey reads a key's text).
 */
const placeholder = (tokens: readonly Token[], i: number): string | undefined => {
  const token = tokens[i]!;
  switch (token.t) {
    case "name":
      return RENAMED.test(token.v) ? "#" : undefined;
    case "number":
      return INTEGER.test(token.v) ? "@" : undefined;
    case "string": {
      if (token.v.includes("\\") || token.v.includes("'")) return undefined;
      const following = tokens[i + 1];
      return following !== undefined && following.t === "punct" && following.v === ":" ? undefined : "`";
    }
    default:
      return undefined;
  }
};

interface Shape {
  readonly key: string;
  /** The tokens replaced, in order. */
  readonly names: readonly string[];
}

/** Layouts by shape: the text between the replaced tokens, one more part than tokens. */
const shapes = new Map<string, readonly string[]>();
let shapesHeld = 0;

const shapeOf = (text: string, tokens: readonly Token[]): Shape => {
  let key = "";
  let from = 0;
  const names: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const mark = placeholder(tokens, i);
    if (mark === undefined) continue;
    const token = tokens[i]!;
    key += `${text.slice(from, token.start)}${mark.repeat(token.v.length)}`;
    from = token.end;
    names.push(token.v);
  }
  return { key: key + text.slice(from), names };
};

/**
 * Keeps `laidOut` as the layout of `shape` when it holds the shape's names, in their order (each
 * token as it was); not when this file's tokens do not read it (a string prettier put in single quotes).
 */
const remember = (shape: Shape, laidOut: string): void => {
  let tokens: Token[];
  try {
    tokens = tokenize(laidOut);
  } catch (error) {
    if (error instanceof Decline) return;
    throw error;
  }
  const parts: string[] = [];
  let from = 0;
  let next = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (placeholder(tokens, i) === undefined) continue;
    const token = tokens[i]!;
    if (token.v !== shape.names[next++]) return;
    parts.push(laidOut.slice(from, token.start));
    from = token.end;
  }
  if (next !== shape.names.length) return;
  parts.push(laidOut.slice(from));
  if (shapesHeld > SHAPES_HELD) {
    shapes.clear();
    shapesHeld = 0;
  }
  shapes.set(shape.key, parts);
  shapesHeld += shape.key.length;
};

/** The shape of `text`, as `layoutCode` keeps its layout (undefined where it keeps none): for tests. */
export const shapeKey = (text: string): string | undefined => {
  try {
    return text.length <= SHAPED ? shapeOf(text, tokenize(text)).key : undefined;
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
};

/** The layout `parts` of a shape with `names` put back. */
const named = (parts: readonly string[], names: readonly string[]): string => {
  let text = parts[0]!;
  for (let i = 0; i < names.length; i++) text += names[i]! + parts[i + 1]!;
  return text;
};
