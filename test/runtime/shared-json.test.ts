// Issue 14, "no payload takes super-linear time": the runtime's walks over a JSON value (jsonFault
// for `json`, isJsonData for kept unknown keys, canonical texts for `unique`) each stop at
// MAX_NODES, but check and errors start one per reference: a map whose 2,000 keys hold one shared
// JSON value of 600,000 values was 1.2 billion values walked by one call, and decode reached that
// walk through errors when `read` refused the payload early. One call now walks at most MAX_NODES
// values through them in all (good-shared-json). Each walk is measured by the reads of a getter in
// the shared value, never by time: past a tripwire the getter throws, so a walk that does not stop
// ends instead of running for minutes.
import { describe, expect, it } from "vitest";
import { createRuntime, hasDuplicates, isJsonData, jsonFault, MAX_NODES } from "../../src/runtime/index.js";
import { demoJsonBag, registry } from "../fixtures/good-shared-json/expected/index.js";

const v = demoJsonBag.v1_0;

/** Reads of the getter in the shared value since the last `sharedJson()`. */
let reads = 0;
/** Past this many reads the getter throws: the walks did not stop at a small multiple of MAX_NODES. */
const TRIPWIRE = 4 * MAX_NODES;

/** One array of 300,000 references to one object whose key `x` is a counting getter: 600,001 values as JSON. */
const sharedJson = (): unknown[] => {
  reads = 0;
  const leaf = Object.defineProperty({}, "x", {
    enumerable: true,
    get: () => {
      if (++reads > TRIPWIRE) throw new Error("tripwire: the walks passed MAX_NODES");
      return 1;
    },
  });
  return Array.from({ length: 300_000 }, () => leaf);
};

const K = 2_000;
const keys = (value: unknown, first: Record<string, unknown> = {}): Record<string, unknown> => ({ ...first, ...Object.fromEntries(Array.from({ length: K }, (_, i) => [`k${i}`, value])) });
const payload = (fields: Record<string, unknown>): Record<string, unknown> => ({ contract: "demo.json_bag", version: "1.0", outputs: {}, ...fields });

describe("K = 2,000 references to one shared JSON value of 600,000 values", () => {
  it("check walks at most a small multiple of MAX_NODES values of it, in a map, kept keys or unique lists", () => {
    for (const fields of [
      () => ({ outputs: keys(sharedJson()) }),
      () => ({ extras: keys(sharedJson()) }),
      () => {
        const big = sharedJson();
        return { pairs: Array.from({ length: K }, () => [big, { small: true }]) };
      },
    ]) {
      expect(v.check(payload(fields()))).toBe(false);
      expect(reads).toBeGreaterThan(0);
      expect(reads).toBeLessThanOrEqual(2 * MAX_NODES);
    }
  });

  it("errors reports depth (too many nested values) where the call's walks passed MAX_NODES", () => {
    const issues = v.errors(payload({ outputs: keys(sharedJson()) }));
    expect(reads).toBeLessThanOrEqual(2 * MAX_NODES);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]).toMatchObject({ code: "depth", expected: `at most ${MAX_NODES} nested values` });
    // The first references were walked and passed; none is reported as anything else.
    expect(issues.filter((i) => i.code !== "depth" && i.code !== "truncated")).toEqual([]);
  });

  it("decode, where read refuses early (a bad value first) and errors judges the value in place, stops too", () => {
    // A map is copied whole by `read`, which refuses a copy past MAX_NODES unjudged (UNPARSEABLE);
    // kept keys and lists are copied entry by entry, so a bad first entry refuses the payload early.
    for (const [fields, path, code] of [
      // A kept key is data: decode names it `*`.
      [() => ({ extras: keys(sharedJson(), { bad: Number.NaN }) }), "/extras/*", "type"],
      [
        () => {
          const big = sharedJson();
          return { pairs: [[Number.NaN], ...Array.from({ length: K }, () => [big, { small: true }])] };
        },
        "/pairs/0/0",
        "json",
      ],
    ] as const) {
      const value = payload(fields());
      for (const decoder of [createRuntime(registry), createRuntime(registry, { persist: { write: () => undefined } })]) {
        reads = 0;
        const decoded = decoder.decode("demo.json_bag", value);
        expect(decoded.ok).toBe(false);
        if (decoded.ok) continue;
        expect(decoded.error.class).toBe("INVALID_INPUT");
        expect(decoded.issues).toContainEqual(expect.objectContaining({ path, code }));
        expect(reads).toBeLessThanOrEqual(2 * MAX_NODES);
      }
    }
  });

  it("check, read and errors agree near the count, whatever order they walk in", () => {
    // check prints the pair's canonical texts before walking its items, read copies the items
    // first: asked only before each walk, the last walk began within the count in read alone.
    const pair = payload({ pairs: [[sharedJson(), { b: 1 }]] });
    expect(v.check(pair)).toBe(false);
    expect(v.read(pair)).toBeUndefined();
    expect(v.errors(pair)).toContainEqual(expect.objectContaining({ code: "depth" }));
    expect(createRuntime(registry).decode("demo.json_bag", pair)).toMatchObject({ ok: false, error: { class: "INVALID_INPUT" } });
  });

  it("the budget is per call: an ordinary payload passes after it, and the runtime's walks alone keep their own", () => {
    const big = sharedJson();
    expect(v.check(payload({ outputs: keys(big) }))).toBe(false);
    // One reference to the shared value is walked like any value of its size.
    const ordinary = payload({ outputs: { search: { hits: [1, 2] }, big }, extras: { note: "hi", origin: "docs" }, pairs: [[{ a: 1 }, { a: 2 }]] });
    expect(v.check(ordinary)).toBe(true);
    expect(v.errors(ordinary)).toEqual([]);
    expect(v.read(ordinary)).toBeDefined();
    expect(createRuntime(registry).decode("demo.json_bag", payload({ outputs: { search: { hits: [1, 2] } }, extras: { origin: "docs" } }))).toMatchObject({ ok: true });
    // Two references walk 1,200,001 values in all: the second passes alone, not within the call's count.
    const twice = payload({ outputs: { a: big, b: big } });
    expect(v.check(twice)).toBe(false);
    // errors asks is_ of the map first, whose walks count too: depth may name an earlier key.
    const issues = v.errors(twice);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.every((i) => i.code === "depth")).toBe(true);
    expect(v.read(twice)).toBeUndefined();
    // After a call that passed the budget, each walk outside a validator still accepts a value of 600,001 values.
    expect(v.errors(payload({ outputs: keys(big) })).length).toBeGreaterThan(0);
    reads = 0;
    expect(jsonFault(big)).toBeUndefined();
    expect(isJsonData(big)).toBe(true);
    expect(hasDuplicates([big, 1])).toBe(false);
  });
});
