// A `constrain` or `retype` that changes a string's pattern: where the new pattern accepts every
// string the old one does (decided on automata, src/ir/pattern-language.ts), the value is
// kept going up and passes unchecked going down, as any widening; elsewhere it needs a stub.
import { describe, expect, it } from "vitest";
import { convertType, type ConvertContext } from "../../src/adapt/convert.js";
import type { ResolvedVersion, TypeNode } from "../../src/ir/model.js";

const version = { enums: new Map(), types: new Map() } as unknown as ResolvedVersion;
const ctx = (direction: "up" | "down"): ConvertContext => ({ source: version, target: version, direction, custom: false, project: false, enumConversion: () => ({ kind: "same" }) });
const convert = (from: TypeNode, to: TypeNode, direction: "up" | "down" = "up") => convertType(from, to, ctx(direction));
const text = (pattern?: string): TypeNode => ({ kind: "string", maxLength: 32, ...(pattern === undefined ? {} : { pattern }) });

describe("a changed pattern", () => {
  it("that accepts every string the old one does is a widening: kept up, unchecked down", () => {
    expect(convert(text("^ORD-[0-9]+$"), text("^ORD-[0-9A-Z]+$"))).toEqual({ kind: "same" });
    expect(convert(text("^ORD-[0-9A-Z]+$"), text("^ORD-[0-9]+$"), "down")).toEqual({ kind: "unchecked" });
    // Written otherwise, the same strings.
    expect(convert(text("^\\d+$"), text("^[0-9]+$"))).toEqual({ kind: "same" });
    // A pattern every string matches, added.
    expect(convert(text(), text("x*"))).toEqual({ kind: "same" });
  });

  it("that rejects a string the old one accepts needs a stub going up", () => {
    expect(convert(text("^ORD-[0-9A-Z]+$"), text("^ORD-[0-9]+$"))).toBeUndefined();
    expect(convert(text(), text("^ORD-"))).toBeUndefined();
    // Undecided (a backreference to a group of any length) counts as narrowing.
    expect(convert(text("^(?:[ab][ab])+$"), text("^([ab]+)\\1$"))).toBeUndefined();
  });
});
