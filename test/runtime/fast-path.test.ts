// The runtime's fast path (nothing observes the decode, no hooks) must give what the full,
// observed pipeline gives: the same results, the same errors and the same counts, on every example
// of every contract in idl/ and on values derived from them.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import { createRuntime, STAGES, type DecodeOptions, type DecodeRecord, type TracerLike } from "../../src/runtime/index.js";
import { registry as stripRegistry } from "../fixtures/good-refs-strip/expected/index.js";

const IDL = join(import.meta.dirname, "../../idl");

interface Source {
  contract: string;
  examples?: { version: string; valid?: unknown; invalid?: unknown }[];
}

const sources: Source[] = readdirSync(IDL, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".yaml") && !file.endsWith(".agent.yaml"))
  .sort()
  .map((file) => parse(readFileSync(join(IDL, file), "utf8")) as Source);

const inputs: [string, unknown][] = sources.flatMap((s) => (s.examples ?? []).map((e) => [s.contract, e.valid ?? e.invalid] as [string, unknown]));

/** Two runtimes over the same registry: one takes the fast path, one is observed and never does. */
const pair = () => {
  const errorId = () => "ERR-fixed";
  return { fast: createRuntime(registry, { errorId }), observed: createRuntime(registry, { errorId, onTrace: () => {} }) };
};

const same = (contract: string, input: unknown, options?: DecodeOptions) => {
  const { fast, observed } = pair();
  const a = fast.decode(contract as "task.result", input, options);
  const b = observed.decode(contract as "task.result", input, options);
  expect(a).toEqual(b);
  expect(fast.metrics()).toEqual(observed.metrics());
};

describe("runtime fast path", () => {
  it("has examples to compare", () => expect(inputs.length).toBeGreaterThan(20));

  it.each(inputs.map(([c, v], i) => [i, c, v] as const))("example %i of %s decodes as the observed pipeline does", (_, contract, input) => {
    same(contract, input);
    same(contract, input, { accept: ["1.0"] });
    same(contract, JSON.stringify(input));
    same(contract, input, { from: "openai" });
    same(contract, input, { from: "nope" });
  });

  it("agrees on replies written the OpenAI way (null for each absent optional field)", () => {
    const nulls = fc.tuple(fc.constantFrom(...inputs), fc.constantFrom("quality", "usage", "callback", "publish_at", "status")).map(([[contract, value], key]) => {
      const copy = structuredClone(value) as Record<string, unknown>;
      if (!(key in copy) || key === "status") copy[key] = null;
      return [contract, copy] as const;
    });
    fc.assert(fc.property(nulls, ([contract, value]) => same(contract, value, { from: "openai" })), { numRuns: 300 });
  });

  it("agrees on values derived from the examples (fields dropped, replaced, versions changed)", () => {
    const mutated = fc.tuple(fc.constantFrom(...inputs), fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), fc.boolean()).map(([[contract, value], key, replacement, drop]) => {
      const copy = structuredClone(value) as Record<string, unknown>;
      const keys = Object.keys(copy);
      const target = keys.length > 0 ? keys[key.length % keys.length]! : key;
      if (drop) delete copy[target];
      else copy[target] = replacement;
      return [contract, copy] as const;
    });
    fc.assert(fc.property(mutated, ([contract, value]) => same(contract, value)), { numRuns: 500 });
  });

  it("agrees over a sequence of decodes that moves between contracts and versions (one runtime, its counters and lanes shared)", () => {
    // A payload naming another version of its contract, or none, or one of another contract's.
    const versions = [...new Set(sources.flatMap((s) => (s.examples ?? []).map((e) => e.version))), "9.9", undefined];
    const step = fc.tuple(fc.constantFrom(...inputs), fc.constantFrom(...versions), fc.boolean()).map(([[contract, value], version, renamed]) => {
      const copy = structuredClone(value) as Record<string, unknown>;
      if (renamed && typeof copy === "object" && copy !== null) copy["version"] = version;
      return [contract, copy] as const;
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 12 }), (steps) => {
        const { fast, observed } = pair();
        for (const [contract, value] of steps) expect(fast.decode(contract as "task.result", value)).toEqual(observed.decode(contract as "task.result", value));
        expect(fast.metrics()).toEqual(observed.metrics());
      }),
      { numRuns: 200 },
    );
  });
});

describe("the fast path's envelope", () => {
  const example = (contract: string, version: string) =>
    structuredClone(sources.find((s) => s.contract === contract)!.examples!.find((e) => e.version === version && e.valid)!.valid) as Record<string, unknown>;

  it("fails a payload of another contract at a version this one has as WRONG_CONTRACT, as the observed pipeline does", () => {
    const other = { ...example("task.result", "2.0"), contract: "agent.task" };
    same("task.result", other);
    const result = createRuntime(registry).decode("task.result", other);
    expect(result).toMatchObject({ ok: false, kind: "wrong-contract", error: { code: "WRONG_CONTRACT" } });
  });

  it("checks the contract's name itself, not only through the `const` of a generated read", () => {
    // A hand-written registration whose `read` copies without checking the envelope.
    const base = registry.contracts["task.result"];
    const v2_0 = base.versions["2.0"];
    const lax = { ...base, versions: { ...base.versions, "2.0": { ...v2_0, read: (value: unknown) => ({ ...(value as object) }) as never } } };
    const runtime = createRuntime({ ...registry, contracts: { ...registry.contracts, "task.result": lax } } as typeof registry);
    const result = runtime.decode("task.result", { ...example("task.result", "2.0"), contract: "agent.task" });
    expect(result).toMatchObject({ ok: false, kind: "wrong-contract" });
  });
});

describe("the adapters' log", () => {
  const example = (contract: string, version: string) =>
    structuredClone(sources.find((s) => s.contract === contract)!.examples!.find((e) => e.version === version && e.valid)!.valid) as Record<string, unknown>;

  it("a result keeps what its decode filled after later decodes that fill nothing and that fill again", () => {
    const runtime = createRuntime(registry);
    const { quality: _, ...withoutQuality } = example("task.result", "1.2");
    const first = runtime.decode("task.result", withoutQuality);
    const empty = runtime.decode("task.result", example("task.result", "1.2"));
    const again = runtime.decode("task.result", withoutQuality);
    expect(first.ok && empty.ok && again.ok).toBe(true);
    if (!first.ok || !empty.ok || !again.ok) return;
    expect(first.filled.map((f) => f.path)).toEqual(["/quality"]);
    expect(empty.filled).toEqual([]);
    expect(again.filled.map((f) => f.path)).toEqual(["/quality"]);
    expect(again.filled).not.toBe(first.filled);
    expect(empty.dropped).toEqual([]);
  });

  it("a decode an adapter starts records into its own log, not into the one the adapter writes to", () => {
    const base = registry.contracts["task.result"];
    const inner = createRuntime(registry);
    const { quality: _, ...withoutQuality } = example("task.result", "1.2");
    // 1.2's adapter wrapped: before converting, it decodes a payload that fills nothing, then one that fills.
    const v1_2 = base.versions["1.2"];
    const nested: string[][] = [];
    const wrapped = {
      ...base,
      versions: {
        ...base.versions,
        "1.2": {
          ...v1_2,
          toCanonical: (value: never, log: Parameters<typeof v1_2.toCanonical>[1]) => {
            const quiet = inner.decode("task.result", example("task.result", "1.2"));
            const filling = inner.decode("task.result", withoutQuality);
            nested.push(quiet.ok ? quiet.filled.map((f) => f.path) : ["failed"], filling.ok ? filling.filled.map((f) => f.path) : ["failed"]);
            return v1_2.toCanonical(value, log);
          },
        },
      },
    };
    const outer = createRuntime({ ...registry, contracts: { ...registry.contracts, "task.result": wrapped } } as typeof registry);
    const decoded = outer.decode("task.result", withoutQuality);
    expect(decoded.ok && decoded.filled.map((f) => f.path)).toEqual(["/quality"]);
    expect(nested).toEqual([[], ["/quality"]]);
  });
});

describe("the order of a decoded value's keys", () => {
  // A value is copied as it is read (text is not: JSON.parse made it, in its own order).
  it("is the declared order, a tagged union's tag first, whichever way a value is decoded", async () => {
    const kitchen = await import("../fixtures/good-kitchen-sink/expected/index.js");
    const value = {
      contract: "demo.kitchen",
      version: "1.1",
      id: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
      name: "Ada Lovelace",
      count: 15,
      active: true,
      created_at: "2026-01-02T03:04:05Z",
      tags: ["a", "b"],
      color: "RED",
      origin: { x: 1, y: 2 },
      shape: { x: 0, y: 0, kind: "dot" },
      schema_version: 3,
    };
    const runtime = createRuntime(kitchen.registry);
    const written = [
      runtime.decode("demo.kitchen", structuredClone(value)),
      runtime.decode("demo.kitchen", structuredClone(value), { from: "openai" }),
      kitchen.decode("demo.kitchen", structuredClone(value)),
      kitchen.decode("demo.kitchen", structuredClone(value), { from: "openai" }),
    ].map(
      (outcome) => {
        expect(outcome.ok).toBe(true);
        return outcome.ok ? JSON.stringify(outcome.value) : "";
      },
    );
    expect(new Set(written).size).toBe(1);
    expect(Object.keys((JSON.parse(written[0]!) as { shape: object }).shape)).toEqual(["kind", "x", "y"]);
    // A variant object of another prototype is read as its own view: the same copy.
    const foreign = Object.assign(Object.create({ inherited: true }) as object, value.shape);
    const outcome = runtime.decode("demo.kitchen", { ...structuredClone(value), shape: foreign });
    expect(outcome.ok && JSON.stringify(outcome.value)).toBe(written[0]);
  });
});

describe("a JS value's acceptance, whatever observes the decode", () => {
  // Logging must never change whether a payload is accepted: the observed pipeline reads a value
  // by the generated `read` first, as the quick path and the registry do, and copies the whole
  // value only where `read` cannot decide. demo.order strips keys it does not declare.
  const order = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
    contract: "demo.order",
    version: "1.1",
    order_id: "O-1",
    placed_at: "2026-11-29T10:00:00+01:00",
    items: [{ sku: "A1", quantity: 2, note: null }],
    ...fields,
  });
  const cycle = (): Record<string, unknown> => {
    const c: Record<string, unknown> = {};
    c["self"] = c;
    return c;
  };
  const dag = (levels: number): unknown[] => {
    let a: unknown[] = [0];
    for (let i = 0; i < levels; i++) a = [a, a];
    return a;
  };
  const throwingAt = (value: Record<string, unknown>, key: string): Record<string, unknown> =>
    Object.defineProperty(value, key, {
      enumerable: true,
      get: () => {
        throw new Error("getter");
      },
    });
  const cyclicList = (): unknown[] => {
    const a: unknown[] = [];
    a.push(a);
    return a;
  };

  // The name, the value, the outcome, whether the persisted record holds a payload (a refused value
  // is copied for it only if it can be).
  const payloads: [string, () => unknown, string, boolean][] = [
    ["a valid order", () => order(), "ok", true],
    ["a cycle under a stripped key", () => order({ extra: cycle() }), "ok", true],
    ["a 2^26 shared DAG under a stripped key", () => order({ extra: dag(26) }), "ok", true],
    ["a cycle under a stripped key of a list's object", () => order({ items: [{ sku: "A1", quantity: 2, extra: cycle() }] }), "ok", true],
    // `read` reads a stripped key's value to report it; a getter that throws there is dropped like
    // a value it cannot copy, as `check`, which never reads it, passes the payload.
    ["a throwing getter as a stripped key", () => throwingAt(order(), "extra"), "ok", true],
    ["a throwing getter inside a stripped key's value", () => order({ extra: throwingAt({}, "x") }), "ok", true],
    ["a cycle in a declared field", () => order({ items: cyclicList() }), "schema SCHEMA_INVALID", false],
    ["a throwing getter in a declared field", () => throwingAt(order(), "order_id"), "unparseable UNPARSEABLE", false],
    ["an invalid order", () => order({ order_id: "nope" }), "schema SCHEMA_INVALID", true],
    ["an invalid order with a cycle under a stripped key", () => order({ order_id: "nope", extra: cycle() }), "schema SCHEMA_INVALID", false],
    ["a newer minor with a cycle under a stripped key (copied first everywhere)", () => order({ version: "1.5", extra: cycle() }), "unparseable UNPARSEABLE", false],
  ];

  const outcome = (d: { ok: boolean; kind?: string; error?: { code: string }; issues?: readonly { path: string; code: string }[] }) =>
    d.ok ? "ok" : `${d.kind} ${d.error!.code} ${JSON.stringify(d.issues!.map((i) => [i.path, i.code]))}`;

  it.each(payloads)("%s: the runtime with no observer, with onTrace, a tracer, persist or a trace id, and the registry agree", (_, make, expected, recorded) => {
    const records: DecodeRecord[] = [];
    const events: string[] = [];
    const tracer = { startSpan: () => ({ addEvent: () => {}, setAttribute: () => {}, setAttributes: () => {}, setStatus: () => {}, end: () => {} }) } as unknown as TracerLike;
    const runtimes = [
      createRuntime(stripRegistry),
      createRuntime(stripRegistry, { onTrace: (e) => events.push(`${e.stage} ${e.outcome}`) }),
      createRuntime(stripRegistry, { tracer }),
      createRuntime(stripRegistry, { persist: { write: (r) => records.push(r) } }),
    ];
    const outcomes = [
      ...runtimes.map((r) => outcome(r.decode("demo.order", make()))),
      outcome(createRuntime(stripRegistry).decode("demo.order", make(), { traceId: "TRACE-1" })),
      outcome(stripRegistry.decode("demo.order", make())),
    ];
    expect(new Set(outcomes).size, outcomes.join("\n")).toBe(1);
    expect(outcomes[0]!.startsWith(expected)).toBe(true);
    // Every stage is still traced and the decode recorded.
    expect(events.length).toBeGreaterThan(0);
    expect(records).toHaveLength(1);
    expect(records[0]!.outcome).toBe(expected === "ok" ? "ok" : "INVALID_INPUT");
    expect(Object.hasOwn(records[0]!, "payload")).toBe(recorded);
    if (expected === "ok") {
      expect(events).toEqual(STAGES.map((s) => `${s} ok`));
      expect(records[0]!.payload).toMatchObject({ order_id: "O-1" });
      expect(records[0]!.payload).not.toHaveProperty("extra");
    }
  });
});
