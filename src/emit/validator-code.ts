// Small pieces of generated code shared by the validator emitter's parts. Issue words are fixed at
// generation time and never quote the payload (its values may be secrets): `expected` says what
// would pass, the message adds what went wrong.
import { escapePointer } from "../runtime/issue.js";
import { writtenLaidOut } from "./file-builder.js";

/** A JS literal. */
export const lit = (value: string | number | boolean | null): string => JSON.stringify(value);

/** `expected` of an enum or a union tag. */
export const oneOf = (values: readonly string[]): string => `one of ${values.join(", ")}`;

/**
 * Declared once in every validator, for `pushIssue`. A call keeps each report a flat statement: as
 * an object literal in `push(...)` it cost prettier a third of the file's formatting time (a
 * hugged last argument is laid out several ways). The message is put together here, so a report
 * names what it expects once: most then fit one line, which prettier lays out at a fraction of
 * the cost of a broken one. V8 inlines it, so `errors` runs as fast.
 */
export const ISSUE_FUNCTION = [
  "function issue(path: string, code: string, problem: string, expected: string): Issue {",
  "  return { path, code, message: `${problem}: expected ${expected}`, expected };",
  "}",
].join("\n");

/**
 * ISSUE_FUNCTION's layout, for a file's `laidOut`: it is written in prettier's layout, which its
 * template literal keeps code-layout.ts from printing (every validator file would load prettier).
 */
export const ISSUE_FUNCTION_LAID_OUT = writtenLaidOut(`${ISSUE_FUNCTION}\n`);

/**
 * The statement that reports one issue into `out` (an identifier) at `path`, a JS expression for
 * the pointer below the value the err_ function was given ("" for that value): its callers put
 * where that value is in front (`nest`).
 */
export const pushIssue = (out: string, path: string, code: string, expected: string, problem: string): string =>
  `${out}.push(issue(${path}, ${lit(code)}, ${lit(problem)}, ${lit(expected)}));`;

/** A JS string literal: the pointer tail of `segments` (known at generation time), each escaped. */
export const pointerTail = (segments: readonly string[]): string => lit(segments.map((s) => `/${escapePointer(s)}`).join(""));

export const indent = (lines: readonly string[]): string[] => lines.map((line) => (line === "" ? line : `  ${line}`));

/** A JSON object in Ajv's sense: not null, not an array. */
export const isObject = (x: string): string => `typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x})`;

// Keys every ordinary object inherits; a field of that name must be an own property to count.
// Listed rather than read from Object.prototype so the output does not depend on the Node version.
const INHERITED_KEYS = new Set([
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
]);

/** Whether `key` names a property every ordinary object inherits (`constructor`, `__proto__`, ...). */
export const isInheritedKey = (key: string): boolean => INHERITED_KEYS.has(key);

/** Whether `key` can be written as a bare property name (`o.key`, `{ key: ... }`). */
export const isIdentifier = (key: string): boolean => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key);

/**
 * Reads own property `key` of the object `obj` (a side-effect-free expression); undefined when
 * absent. `chained`: `obj` may be undefined or null, read through `?.`.
 */
export const member = (obj: string, key: string, chained = false): string => {
  const dot = chained ? "?." : ".";
  const access = isIdentifier(key) ? `${obj}${dot}${key}` : `${obj}${chained ? "?." : ""}[${lit(key)}]`;
  return INHERITED_KEYS.has(key) ? `(${chained ? `${obj} != null && ` : ""}Object.hasOwn(${obj}, ${lit(key)}) ? ${access} : undefined)` : access;
};
