// Adapters through untagged unions: a value passes as it is when every source variant widens to a
// target variant; otherwise there is no conversion through a variant.
import { describe, expect, it } from "vitest";
import { widens } from "../../src/adapt/convert.js";
import type { ResolvedVersion, TypeNode } from "../../src/ir/model.js";

const version = { enums: new Map(), types: new Map() } as unknown as ResolvedVersion;
const loc = { file: "x.yaml", line: 1, col: 1 };
const union = (...types: TypeNode[]): TypeNode => ({ kind: "oneOf", variants: types.map((type) => ({ type, loc })) });
const str: TypeNode = { kind: "string" };
const int: TypeNode = { kind: "int" };
const bool: TypeNode = { kind: "bool" };

describe("untagged unions in conversions", () => {
  it("widen when every source variant fits a target variant", () => {
    expect(widens(union(str, int), version, union(int, str, bool), version)).toBe(true);
    expect(widens(str, version, union(str, int), version)).toBe(true);
    expect(widens(union(int, { kind: "const", value: "a" }), version, union(int, str), version)).toBe(true);
  });

  it("do not widen when a variant is lost or narrowed", () => {
    expect(widens(union(str, int, bool), version, union(str, int), version)).toBe(false);
    expect(widens(union(str, int), version, str, version)).toBe(false);
    expect(widens(union({ kind: "number" }, str), version, union(int, str), version)).toBe(false);
  });
});
