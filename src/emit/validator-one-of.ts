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

const atomTest = (atom: Atom, x: string): string => (atom.values ? valuesTest(atom.values, x) : sortTest(atom.sorts, x));

const testCode = (test: Test, x: string): string => {
  if (test.kind === "values") return test.negate ? `!${valuesTest(test.values, x)}` : valuesTest(test.values, x);
  // Own properties only, as the variants' checks read them: an inherited key selects nothing.
  const own = `Object.hasOwn(${x}, ${JSON.stringify(test.field)})`;
  const field = member(x, test.field);
  const holds =
    test.atom === undefined
      ? `(${own} && ${field} !== undefined)`
      : test.absentPasses
        ? `(!${own} || ${field} === undefined || ${atomTest(test.atom, field)})`
        : `(${own} && ${atomTest(test.atom, field)})`;
  return test.negate ? `!(${holds})` : holds;
};

/** A JS expression: the value held by `x` is of the variant `selector` selects, if of any. */
export const selectorCode = (selector: VariantSelector, x: string): string =>
  [sortTest(selector.sorts, x), ...selector.tests.map((t) => testCode(t, x))].join(" && ");
