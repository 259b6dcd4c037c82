// The `json` check: faithful JSON only, its bounds exactly as an independent count says, never a
// stack overflow, and a huge value not read past its bound. Then json and tuple values through the
// generated validators (bounds the Ajv agreement tests keep inside), redaction and re-ask paths.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JSON_DEPTH_LIMIT, jsonFault, reaskMessage, redact, REDACTED } from "../../src/runtime/index.js";
import { demoToolCall, demoToolLog } from "../fixtures/good-json/expected/index.js";
import { demoGeoPoint } from "../fixtures/good-tuple/expected/index.js";
import { jsonDepth } from "../support/json-bounds.js";

const nested = (levels: number): unknown => {
  let value: unknown = [];
  for (let level = 1; level < levels; level++) value = [value];
  return value;
};

describe("jsonFault", () => {
  it("accepts every JSON value fast-check makes, and counts depth and bytes as an independent count does", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const depth = jsonDepth(value);
        const bytes = Buffer.byteLength(JSON.stringify(value), "utf8");
        expect(jsonFault(value)).toBeUndefined();
        expect(jsonFault(value, Math.max(depth, 1), bytes)).toBeUndefined();
        if (depth > 1) expect(jsonFault(value, depth - 1)).toBe("maxDepth");
        expect(jsonFault(value, undefined, bytes - 1)).toBe("maxBytes");
      }),
      { numRuns: 500 },
    );
  });

  it("counts escapes, surrogate pairs and lone surrogates as JSON.stringify writes them", () => {
    for (const s of ['"\\', "\n\t\b\f\r", "\u0001\u001f", "é€", "\u{1F600}", "\ud800", "a\udc00b", "\u2028"]) {
      const bytes = Buffer.byteLength(JSON.stringify(s), "utf8");
      expect(jsonFault(s, undefined, bytes)).toBeUndefined();
      expect(jsonFault(s, undefined, bytes - 1)).toBe("maxBytes");
    }
  });

  it("rejects what JSON cannot write faithfully", () => {
    for (const value of [undefined, () => 1, Symbol("s"), 1n, NaN, Infinity, [1, undefined], { a: NaN }, Object.defineProperty({}, "a", { get: () => NaN, enumerable: true })]) {
      expect(jsonFault(value)).toBe("json");
    }
    // A getter is read once, as the snapshot `read` hands over reads it: what it gives is judged.
    expect(jsonFault(Object.defineProperty({}, "a", { get: () => 1, enumerable: true }))).toBeUndefined();
    // An object is its own keys, as JSON.stringify reads it.
    expect(jsonFault(Object.create({ inherited: NaN }))).toBeUndefined();
  });

  it("walks a nesting far past the call stack without recursion, and stops at the hard cap", () => {
    const deep = nested(1_000_000);
    expect(jsonFault(deep)).toBe("jsonDepth");
    expect(jsonFault(deep, 10)).toBe("maxDepth");
    expect(jsonFault(nested(JSON_DEPTH_LIMIT))).toBeUndefined();
    expect(jsonFault(nested(JSON_DEPTH_LIMIT + 1))).toBe("jsonDepth");
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(jsonFault(cyclic)).toBe("jsonDepth");
  });

  it("the independent count (the fuzzer's referee) measures a value nested past the call stack", () => {
    // `npm run fuzz` (seed 20261204) crashed in the count, then recursive, on its deep payloads.
    expect(jsonDepth(nested(200_000))).toBe(200_000);
    expect(jsonDepth({ a: [1, { b: [] }], c: "x" })).toBe(4);
    expect(jsonDepth("x")).toBe(0);
  });

  it("does not read a huge value past maxBytes", () => {
    const huge = "x".repeat(50_000_000);
    const started = performance.now();
    expect(jsonFault({ a: huge }, undefined, 1000)).toBe("maxBytes");
    expect(jsonFault(Array.from({ length: 1_000_000 }, () => 1), undefined, 100)).toBe("maxBytes");
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

const call = { contract: "demo.tool_call", version: "1.0", tool: "search", call_id: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f", attempt: 1 };

describe("generated validators: json bounds and tuples", () => {
  const v = demoToolCall.v1_0;

  it("reports each json bound at the field, never below it", () => {
    expect(v.errors({ ...call, arguments: nested(5) })).toEqual([expect.objectContaining({ path: "/arguments", code: "maxDepth" })]);
    expect(v.errors({ ...call, arguments: "x".repeat(5000) })).toEqual([expect.objectContaining({ path: "/arguments", code: "maxBytes" })]);
    expect(v.errors({ ...call, arguments: { a: undefined } })).toEqual([expect.objectContaining({ path: "/arguments", code: "json" })]);
    expect(v.errors({ ...call, arguments: 1, context: nested(65) })).toEqual([expect.objectContaining({ path: "/context", code: "jsonDepth" })]);
    expect(v.check({ ...call, arguments: { deep: nested(3) }, context: nested(64) })).toBe(true);
    expect(v.check({ ...call, arguments: 1, meta: null })).toBe(true);
  });

  it("checks a tuple's length and each position", () => {
    const g = demoGeoPoint.v1_0;
    const base = { contract: "demo.geo_point", version: "1.0", name: "Bern" };
    expect(g.check({ ...base, position: [7.4, 46.9] })).toBe(true);
    expect(g.errors({ ...base, position: [7.4] })).toEqual([expect.objectContaining({ path: "/position", code: "minItems" })]);
    expect(g.errors({ ...base, position: [7.4, 46.9, 0] })).toEqual([expect.objectContaining({ path: "/position", code: "maxItems" })]);
    expect(g.errors({ ...base, position: ["7.4", 91] })).toEqual([
      expect.objectContaining({ path: "/position/0", code: "type" }),
      expect.objectContaining({ path: "/position/1", code: "max" }),
    ]);
    expect(g.errors({ ...base, position: [0, 0], tagged: ["label", "x", { weight: -1 }] })).toEqual([expect.objectContaining({ path: "/tagged/2/weight", code: "min" })]);
  });
});

describe("redaction and re-asks", () => {
  const log = { contract: "demo.tool_log", version: "1.0", tool: "t", status: "done", duration_ms: 1, output: { "PII-key": ["v"] }, trace: { a: 1 } };

  it("keeps a json value whole, drops a sensitive one whole, and never keeps what JSON cannot write", () => {
    const shape = demoToolLog.v1_0.shape;
    expect(redact(log, shape, { internal: false })).toEqual({ ...log, trace: undefined });
    expect(redact(log, shape, { internal: true })).toEqual(log);
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(redact({ ...log, output: cyclic }, shape, { internal: true })).toMatchObject({ output: REDACTED });
    const secret = { ...call, arguments: 1, secret_context: { token: "SECRET" } };
    expect(redact(secret, demoToolCall.v1_0.shape, { internal: true })).not.toHaveProperty("secret_context");
  });

  it("masks keys inside a json value in re-ask paths, and names tuple positions", () => {
    const message = reaskMessage("demo.tool_log", "1.0", [{ path: "/output/PII-key/0", code: "type", message: "", expected: "x" }], demoToolLog.v1_0.shape);
    expect(message).toContain("- /output/*/* (type)");
    expect(message).not.toContain("PII-key");
    const tuple = reaskMessage("demo.geo_point", "1.0", [{ path: "/tagged/2/weight", code: "min", message: "", expected: "integer >= 0" }], demoGeoPoint.v1_0.shape);
    expect(tuple).toContain("- /tagged/2/weight (min)");
  });
});
