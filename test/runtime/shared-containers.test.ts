// Issue 14 item 4, "no payload takes super-linear time": a JS value that shares objects, in a
// version whose contract leaves its walk unbounded (good-nested-unbounded: maps forty deep, a list
// without maxItems of items holding maps nested as deep). A map whose two keys hold one map, forty
// levels down, is 2^40 values as JSON from eighty references: check and errors walked it as a tree
// (251 ms at 22 levels, doubling with each), and decode reached that walk when `read` refused the
// payload early for another reason. Each walk here is measured by the reads of a getter at the
// bottom of the shared value, never by time: past a tripwire the getter throws, so a walk that
// does not stop ends instead of running for hours.
import { describe, expect, it } from "vitest";
import { createRuntime, MAX_NODES } from "../../src/runtime/index.js";
import { demoNested, registry } from "../fixtures/good-nested-unbounded/expected/index.js";

const v = demoNested.v1_0;

/** Reads of the getter at the bottom of every shared value since the last `shared()`. */
let reads = 0;
/** Past this many reads the getter throws: the walk did not stop at MAX_NODES. */
const TRIPWIRE = 4 * MAX_NODES;

/**
 * `levels` maps, each holding the one below: under its two keys `a` and `b` in the lowest
 * `sharing` levels, under `a` alone above them; the last holds a string behind a counting getter.
 */
const shared = (levels: number, sharing = levels): Record<string, unknown> => {
  reads = 0;
  let m: Record<string, unknown> = Object.defineProperty({}, "leaf", {
    enumerable: true,
    get: () => {
      if (++reads > TRIPWIRE) throw new Error("tripwire: the walk passed MAX_NODES");
      return "x";
    },
  });
  for (let i = 1; i < levels; i++) m = i < sharing ? { a: m, b: m } : { a: m };
  return m;
};

const payload = (fields: Record<string, unknown>): Record<string, unknown> => ({ contract: "demo.nested", version: "1.0", deep: {}, items: [], ...fields });

describe("a version whose walk the contract does not bound (maps forty deep, K = 2 shared at each level)", () => {
  it("check, read and decode refuse it past MAX_NODES values, without walking 2^40; the count is per call", () => {
    expect(v.check(payload({ deep: shared(40) }))).toBe(false);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(MAX_NODES);
    // read's copy passes MAX_NODES (as before): decode refuses it unjudged, as UNPARSEABLE.
    expect(v.read(payload({ deep: shared(40) }))).toBeUndefined();
    const decoded = createRuntime(registry).decode("demo.nested", payload({ deep: shared(40) }));
    expect(decoded).toMatchObject({ ok: false, error: { class: "INVALID_INPUT", code: "UNPARSEABLE" } });
    expect(reads).toBeLessThanOrEqual(2 * MAX_NODES);
    // Below the bound a value sharing as much passes: ten levels of sharing, 2^9 labels.
    expect(v.check(payload({ deep: shared(40, 10) }))).toBe(true);
    expect(reads).toBe(2 ** 9);
    const normal = payload({ deep: { a: { b: {} } }, items: [{ name: "first" }, { name: "second", deep: { x: {} } }] });
    expect(v.check(normal)).toBe(true);
    expect(v.errors(normal)).toEqual([]);
    expect(v.read(normal)).toEqual(normal);
    expect(createRuntime(registry).decode("demo.nested", normal)).toMatchObject({ ok: true });
  });

  it("errors reports depth (too many nested values) and nothing else, walking each value once", () => {
    const issues = v.errors(payload({ deep: shared(40) }));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.every((i) => i.code === "depth")).toBe(true);
    expect(issues[0]).toMatchObject({ expected: `at most ${MAX_NODES} nested values` });
    // Its is_ checks and its descent each stop at MAX_NODES.
    expect(reads).toBeLessThanOrEqual(2 * MAX_NODES);
  });

  it("decode, where read refuses early (a bad item before the shared one), judges the value in place within MAX_NODES", () => {
    // `read` stops at the first item, before any copy passes MAX_NODES, so decode judges the value
    // where it stands with errors(): that walk reached the shared maps under the second item.
    const value = payload({ items: [{ name: 5 }, { name: "second", deep: shared(39) }] });
    for (const decoder of [createRuntime(registry), createRuntime(registry, { persist: { write: () => undefined } })]) {
      reads = 0;
      const decoded = decoder.decode("demo.nested", value);
      expect(decoded.ok).toBe(false);
      if (decoded.ok) continue;
      expect(decoded.error.class).toBe("INVALID_INPUT");
      expect(decoded.issues).toContainEqual(expect.objectContaining({ path: "/items/0/name", code: "type" }));
      expect(reads).toBeLessThanOrEqual(2 * MAX_NODES);
    }
  });

  it("errors still finds a real fault among many valid values: each value counted once, not once per re-check", () => {
    // 40 levels of one map under `a` only (no sharing), each holding 30,000 labels at the bottom:
    // errors checks the failing branch once per level above the fault (about 1.2 million checks),
    // but it holds 30,041 values, far below MAX_NODES.
    let m: Record<string, unknown> = {};
    for (let i = 0; i < 30_000; i++) m[`k${i}`] = "x";
    m["bad"] = 5;
    for (let i = 1; i < 40; i++) m = { a: m };
    const issues = v.errors(payload({ deep: m }));
    expect(issues).toEqual([expect.objectContaining({ path: "/deep" + "/a".repeat(39) + "/bad", code: "type" })]);
  });
});
