import equal from "fast-deep-equal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasDuplicates, jsonEqual } from "../../src/runtime/index.js";

// Ajv's uniqueItems compares items with fast-deep-equal, which throws on keys that shadow
// Object.prototype members (`valueOf`), so the comparison runs on values without them.
const shadowsPrototype = (items: unknown): boolean => /"(valueOf|toString|constructor|hasOwnProperty|__proto__)":/.test(JSON.stringify(items));
const pairwise = (items: readonly unknown[]): boolean => items.some((a, i) => items.slice(0, i).some((b) => equal(a, b)));

describe("hasDuplicates", () => {
  it("finds equal JSON values by structure", () => {
    expect(hasDuplicates([])).toBe(false);
    expect(hasDuplicates([1, "1", true, null])).toBe(false);
    expect(hasDuplicates([0, -0])).toBe(true);
    expect(hasDuplicates([{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }])).toBe(true);
    expect(hasDuplicates([{ a: 1, b: 2 }, { b: 2, a: 1 }])).toBe(true);
    expect(hasDuplicates([{ a: 1 }, { a: 1, b: undefined }])).toBe(false);
    expect(hasDuplicates([[1, 2], [2, 1]])).toBe(false);
    expect(hasDuplicates(["__proto__", "__proto__"])).toBe(true);
  });

  it("agrees with fast-deep-equal on JSON, small and large arrays", () => {
    const small = fc.array(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(1, "a", [1], { a: 1 })), { maxLength: 8 }).filter((items) => !shadowsPrototype(items));
    fc.assert(fc.property(small, (items) => hasDuplicates(items) === pairwise(items)), { numRuns: 5000 });
    const large = fc.array(fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constantFrom(true, false, null), fc.string({ maxLength: 2 })), { minLength: 33, maxLength: 60 });
    fc.assert(fc.property(large, (items) => hasDuplicates(items) === pairwise(items)), { numRuns: 2000 });
  });

  it("never throws on objects shadowing Object.prototype members", () => {
    expect(jsonEqual({ valueOf: 1 }, { valueOf: 1 })).toBe(true);
    expect(jsonEqual(JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 2}'))).toBe(false);
  });
});
