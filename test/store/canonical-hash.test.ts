// The input hash of agent events: SHA-256 of the canonical JSON, the same for any key order.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalHash, canonicalJson } from "../../src/runtime/index.js";

const reversedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reversedKeys)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)]))
      : value;

describe("canonicalHash", () => {
  it("is the SHA-256 of the canonical JSON, keys sorted at every depth", () => {
    const input = { b: [{ z: 1, a: "é" }], a: null };
    expect(canonicalJson(input)).toBe('{"a":null,"b":[{"a":"é","z":1}]}');
    expect(canonicalHash(input)).toBe(createHash("sha256").update('{"a":null,"b":[{"a":"é","z":1}]}', "utf8").digest("hex"));
  });

  it("does not depend on key order, and tells different values apart", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(canonicalHash(reversedKeys(a))).toBe(canonicalHash(a));
        if (canonicalJson(a) !== canonicalJson(b)) expect(canonicalHash(a)).not.toBe(canonicalHash(b));
      }),
    );
  });
});
