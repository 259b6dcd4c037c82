// Where a JSON text first breaks JSON's grammar (RFC 8259). JSON.parse says so only in prose that
// differs between Node versions, and the YAML parser accepts what JSON does not (comments, trailing
// commas, unquoted keys), so JSON files (the config, package.json, schemas to import or compare) are
// checked here before YAML reads their nodes.

export interface JsonSyntaxError {
  /** Offset of the first character that cannot be there. */
  readonly offset: number;
  readonly detail: string;
}

class Broken extends Error {
  constructor(readonly offset: number, readonly detail: string) {
    super(detail);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const MAX_DEPTH = 512;
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
    // A bound on nesting keeps a hostile file from exhausting the stack of this recursive scan.
    if (++depth > MAX_DEPTH) fail(`nesting at most ${MAX_DEPTH} deep`);
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
    if (error instanceof Broken) return { offset: error.offset, detail: error.detail };
    throw error;
  }
};
