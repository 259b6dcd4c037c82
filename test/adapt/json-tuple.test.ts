// Conversions of json and tuple types between versions: any value fits a json without bounds, a
// json fits a json with looser bounds, a tuple converts position by position.
import { describe, expect, it } from "vitest";
import { convertType, type ConvertContext } from "../../src/adapt/convert.js";
import type { Conversion } from "../../src/adapt/model.js";
import type { ResolvedVersion, TypeNode } from "../../src/ir/model.js";

const version = { enums: new Map(), types: new Map() } as unknown as ResolvedVersion;
const table: Conversion = { kind: "enum", table: { enum: "Level", reversible: true, unchecked: false, entries: [] } } as unknown as Conversion;
const ctx = (direction: "up" | "down"): ConvertContext => ({
  source: version,
  target: version,
  direction,
  custom: false,
  project: false,
  enumConversion: (name) => (name === "Level" ? table : { kind: "same" }),
});
const convert = (from: TypeNode, to: TypeNode, direction: "up" | "down" = "up") => convertType(from, to, ctx(direction));

describe("json", () => {
  it("takes every value when it has no bounds, and only a json within its bounds otherwise", () => {
    expect(convert({ kind: "string", maxLength: 3 }, { kind: "json" })).toEqual({ kind: "same" });
    expect(convert({ kind: "json", maxDepth: 3 }, { kind: "json", maxDepth: 5, maxBytes: undefined })).toEqual({ kind: "same" });
    expect(convert({ kind: "json", maxDepth: 5 }, { kind: "json", maxDepth: 3 })).toBeUndefined();
    expect(convert({ kind: "string" }, { kind: "json", maxBytes: 10 })).toBeUndefined();
  });

  it("narrowing to a concrete type needs a stub going up and passes unchecked going down a widening", () => {
    expect(convert({ kind: "json" }, { kind: "string" })).toBeUndefined();
    expect(convert({ kind: "json" }, { kind: "string" }, "down")).toEqual({ kind: "unchecked" });
  });
});

describe("tuple", () => {
  const pair = (first: TypeNode): TypeNode => ({ kind: "tuple", items: [first, { kind: "int" }] });

  it("converts position by position", () => {
    expect(convert(pair({ kind: "string", maxLength: 5 }), pair({ kind: "string", maxLength: 9 }))).toEqual({ kind: "same" });
    expect(convert(pair({ kind: "enum", name: "Level" }), pair({ kind: "enum", name: "Level" }))).toEqual({ kind: "tuple", items: [table, { kind: "same" }] });
  });

  it("another length, or a position that narrows, needs a stub", () => {
    expect(convert(pair({ kind: "int" }), { kind: "tuple", items: [{ kind: "int" }] })).toBeUndefined();
    expect(convert(pair({ kind: "string", maxLength: 9 }), pair({ kind: "string", maxLength: 5 }))).toBeUndefined();
  });
});
