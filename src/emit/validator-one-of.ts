// The generated code of an untagged union's selectors (ir/one-of-variants.ts): a boolean
// expression per variant, true for every value of that variant and for no value of another.
import type { Atom, Primitive, Sort, Test, VariantSelector } from "../ir/one-of-variants.js";
import { isObject, member } from "./validator-code.js";

const sortTest = (sorts: ReadonlySet<Sort>, x: string): string => {
  const parts: string[] = [];
  if (sorts.has("integer") && sorts.has("fraction")) parts.push(`typeof ${x} === "number"`);
  else if (sorts.has("integer")) parts.push(`Number.isInteger(${x})`);
  else if (sorts.has("fraction")) parts.push(`(typeof ${x} === "number" && !Number.isInteger(${x}))`);
  if (sorts.has("string")) parts.push(`typeof ${x} === "string"`);
  if (sorts.has("boolean")) parts.push(`typeof ${x} === "boolean"`);
  if (sorts.has("null")) parts.push(`${x} === null`);
  if (sorts.has("array")) parts.push(`Array.isArray(${x})`);
  if (sorts.has("object")) parts.push(`(${isObject(x)})`);
  return parts.length === 1 ? parts[0]! : `(${parts.join(" || ")})`;
};

const valuesTest = (values: readonly Primitive[], x: string): string =>
  values.length === 1 ? `${x} === ${JSON.stringify(values[0])}` : `(${values.map((v) => `${x} === ${JSON.stringify(v)}`).join(" || ")})`;

/** A RegExp (`u` flag) of a pattern, as an expression of the generated code. */
export type PatternRegex = (pattern: string) => string;

const patternTest = (pattern: string, x: string, regex: PatternRegex): string => `(typeof ${x} !== "string" || ${regex(pattern)}.test(${x}))`;

const atomTest = (atom: Atom, x: string, regex: PatternRegex): string => {
  if (atom.values) return valuesTest(atom.values, x);
  if (atom.pattern === undefined) return sortTest(atom.sorts, x);
  // Of strings only, the sort test already let only a string through.
  const pattern = atom.sorts.size === 1 && atom.sorts.has("string") ? `${regex(atom.pattern)}.test(${x})` : patternTest(atom.pattern, x, regex);
  return `(${sortTest(atom.sorts, x)} && ${pattern})`;
};

/** `stringsOnly`: the selector's sort test let only strings through. */
const testCode = (test: Test, x: string, regex: PatternRegex, stringsOnly: boolean): string => {
  if (test.kind === "values") return test.negate ? `!${valuesTest(test.values, x)}` : valuesTest(test.values, x);
  if (test.kind === "pattern") return stringsOnly ? `${regex(test.pattern)}.test(${x})` : patternTest(test.pattern, x, regex);
  // Own properties only, as the variants' checks read them: an inherited key selects nothing.
  const own = `Object.hasOwn(${x}, ${JSON.stringify(test.field)})`;
  const field = member(x, test.field);
  const holds =
    test.atom === undefined
      ? `(${own} && ${field} !== undefined)`
      : test.absentPasses
        ? `(!${own} || ${field} === undefined || ${atomTest(test.atom, field, regex)})`
        : `(${own} && ${atomTest(test.atom, field, regex)})`;
  return test.negate ? `!(${holds})` : holds;
};

/**
 * A JS expression: the value held by `x` is of the variant `selector` selects, if of any. A pattern
 * test uses `regex`'s RegExp (a module-level one of the validator, adapter or reply mapping).
 */
export const selectorCode = (selector: VariantSelector, x: string, regex: PatternRegex): string => {
  const stringsOnly = selector.sorts.size === 1 && selector.sorts.has("string");
  return [sortTest(selector.sorts, x), ...selector.tests.map((t) => testCode(t, x, regex, stringsOnly))].join(" && ");
};
