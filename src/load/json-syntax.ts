// Where a JSON text first breaks JSON's grammar (RFC 8259). JSON.parse says so only in prose that
// differs between Node versions, and the YAML parser accepts what JSON does not (comments, trailing
// commas, unquoted keys), so JSON files (the config, package.json, schemas to import or compare) are
// checked here before YAML reads their nodes.
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { MAX_NESTING } from "./nesting-past-limit.js";
import { positionAt } from "./read-sources.js";

export interface JsonSyntaxError {
  /** Offset of the first character that cannot be there. */
  readonly offset: number;
  readonly detail: string;
  /** Brackets nested past `MAX_NESTING`: JSON, maybe, but past a limit of treaty's. */
  readonly tooDeep?: boolean;
}

class Broken extends Error {
  constructor(readonly offset: number, readonly detail: string, readonly tooDeep = false) {
    super(detail);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const STRING_PART = /[^"\\\u0000-\u001f]+|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** The first syntax error in `text`, or undefined when it is JSON. */
export const jsonSyntaxError = (text: string): JsonSyntaxError | undefined => {
  // A leading byte order mark, as some editors save files, is not part of the text (RFC 8259 §8.1).
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const found = (): string => (at >= text.length ? "the end of the file" : JSON.stringify(text[at]));
  const fail = (expected: string): never => {
    throw new Broken(at, `expected ${expected}, found ${found()}`);
  };
  const space = (): void => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const match = (pattern: RegExp): boolean => {
    pattern.lastIndex = at;
    if (!pattern.test(text)) return false;
    at = pattern.lastIndex;
    return true;
  };
  const string = (): void => {
    at++;
    while (match(STRING_PART));
    if (text[at] !== '"') fail(text[at] === "\\" ? "a valid escape" : at >= text.length ? "a closing '\"'" : "no control character in a string");
    at++;
  };
  let depth = 0;
  /** An object's or array's items from its opening bracket up to and including `close`. */
  const items = (close: string, item: () => void, what: string): void => {
    if (++depth > MAX_NESTING) throw new Broken(at, `nested more than ${MAX_NESTING} levels deep`, true);
    at++;
    space();
    if (text[at] !== close) {
      for (;;) {
        item();
        space();
        if (text[at] === close) break;
        if (text[at] !== ",") fail(`',' or '${close}' after ${what}`);
        at++;
        space();
      }
    }
    at++;
    depth--;
  };
  const value = (): void => {
    space();
    const c = text[at];
    if (c === "{") {
      items("}", () => {
        if (text[at] !== '"') fail("a double-quoted property name");
        string();
        space();
        if (text[at] !== ":") fail("':' after a property name");
        at++;
        value();
      }, "a property value");
    } else if (c === "[") items("]", value, "an array item");
    else if (c === '"') string();
    else if (!match(NUMBER) && !match(LITERAL)) fail("a JSON value");
  };
  try {
    value();
    space();
    if (at < text.length) fail("the end of the file after the value");
    return undefined;
  } catch (error) {
    if (error instanceof Broken) return { offset: error.offset, detail: error.detail, ...(error.tooDeep && { tooDeep: true }) };
    throw error;
  }
};

/** `error` in `file` (its `text`) as a diagnostic: `json-syntax`, or `limit-exceeded` past the nesting limit. */
export const jsonSyntaxDiagnostic = (file: string, text: string, error: JsonSyntaxError): Diagnostic => {
  const loc = { file, ...positionAt(text, error.offset) };
  return error.tooDeep
    ? createDiagnostic("limit-exceeded", loc, { what: "the nesting of this JSON", actual: `more than ${MAX_NESTING} levels`, max: `${MAX_NESTING} levels` })
    : createDiagnostic("json-syntax", loc, { detail: error.detail });
};
