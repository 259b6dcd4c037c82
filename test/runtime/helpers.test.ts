import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength, escapePointer, isMultipleOf, rebuildRecord, recordOfEntries, type Issue } from "../../src/runtime/index.js";

describe("codePointLength", () => {
  it("counts code points, a lone surrogate as one, like Ajv", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("a😀b")).toBe(3);
    expect(codePointLength("\ud83d")).toBe(1);
    expect(codePointLength("\ude00\ud83d")).toBe(2);
    const theirs = (createRequire(import.meta.url)("ajv/dist/runtime/ucs2length.js") as { default: (s: string) => number }).default;
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(codePointLength(s)).toBe(theirs(s));
      }),
      { numRuns: 5000 },
    );
  });
});

describe("isMultipleOf", () => {
  // Ajv (no multipleOfPrecision): invalid when `x / m !== parseInt(x / m)`.
  const ajv = (x: number, m: number): boolean => {
    const q = x / m;
    return q === parseInt(String(q));
  };

  it("decides exactly as Ajv does", () => {
    for (const [x, m] of [[10, 5], [7, 5], [0.3, 0.1], [0.5, 0.1], [1e21, 1], [1e20, 1], [-1e21, 1], [-0, 3], [2 ** 53, 2], [1e-7, 1], [5e-324, 1]] as const) {
      expect(isMultipleOf(x, m), `${x} / ${m}`).toBe(ajv(x, m));
    }
    const positive = fc.double({ min: 1e-12, max: 1e12, noNaN: true });
    const same = (x: number, m: number): boolean => isMultipleOf(x, m) === ajv(x, m);
    const step = fc.constantFrom(0.1, 0.01, 0.25, 0.2, 1.5, 3, 1e-3);
    fc.assert(fc.property(fc.double({ noNaN: true }), fc.double({ min: 1e-12, max: 1e12, noNaN: true }), same), { numRuns: 20_000 });
    fc.assert(fc.property(fc.integer(), fc.integer({ min: 1, max: 1000 }), same), { numRuns: 5000 });
    fc.assert(fc.property(fc.integer({ min: -1e6, max: 1e6 }), step, (k, m) => same(k * m, m)), { numRuns: 5000 });
  });
});

describe("escapePointer", () => {
  it("escapes ~ then / as RFC 6901 says", () => {
    expect(escapePointer("plain")).toBe("plain");
    expect(escapePointer("a/b~c")).toBe("a~1b~0c");
    expect(escapePointer("~1")).toBe("~01");
  });
});

describe("rebuildRecord", () => {
  it("drops the named nulls, replaces values, keeps key order and keys like __proto__, and leaves its argument alone", () => {
    const record = JSON.parse('{"a": null, "__proto__": {"x": 1}, "b": null, "c": 1}') as Record<string, unknown>;
    const rebuilt = rebuildRecord(record, ["a", "c"], [["c", 2]]);
    expect(Object.keys(rebuilt)).toEqual(["__proto__", "b", "c"]);
    expect(Object.getPrototypeOf(rebuilt)).toBe(Object.prototype);
    expect(Object.hasOwn(rebuilt, "__proto__")).toBe(true);
    expect(rebuilt["b"]).toBeNull();
    expect(rebuilt["c"]).toBe(2);
    expect(Object.keys(record)).toEqual(["a", "__proto__", "b", "c"]);
  });
});

describe("recordOfEntries", () => {
  it("makes an object of { key, value } entries, each value through inner, __proto__ a key", () => {
    const issues: Issue[] = [];
    const record = recordOfEntries(JSON.parse('[{"key": "__proto__", "value": 1}, {"key": "b", "value": 2}]') as unknown[], issues, () => "/m", (v, k) => `${k}=${String(v)}`)!;
    expect(Object.keys(record)).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(record["b"]).toBe("b=2");
    expect(issues).toEqual([]);
  });

  it("a key twice is an issue at the map; anything but entries is left to the validator", () => {
    const issues: Issue[] = [];
    expect(recordOfEntries([{ key: "a", value: 1 }, { key: "a", value: 2 }], issues, () => "/m")).toBeUndefined();
    expect(issues.map((i) => [i.path, i.code])).toEqual([["/m", "unique"]]);
    for (const bad of [[1], [{ key: 1, value: 1 }], [{ key: "a" }], [{ key: "a", value: 1, extra: 0 }]]) {
      expect(recordOfEntries(bad, issues, () => "/m")).toBeUndefined();
    }
    expect(issues).toHaveLength(1);
  });
});
