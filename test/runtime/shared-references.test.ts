// A JS value that shares objects, and one decode of a JS value however it is observed. Every walk
// over an arbitrary value (snapshot, jsonFault, canonicalJson and so uniqueness, isJsonData,
// redaction) stops at MAX_NODES: a DAG whose JSON is 2^26 values is refused with INVALID_INPUT,
// where it hung or aborted Node out of memory. A value that cannot be read is INVALID_INPUT, and
// the same failure, traced or not (a decode may name the fault it meets first without reading the rest); a
// provider's reply maps only the positions it holds as its own keys.
import { describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import { check as checkTask, errors as errorsTask } from "../../generated/agent.task/v3_0/validator.js";
import { canonicalJson, createRuntime, hasDuplicates, isJsonData, jsonFault, MAX_NODES, redact, REDACTED, snapshot, type DecodeRecord } from "../../src/runtime/index.js";
import { demoToolCall, registry as jsonRegistry } from "../fixtures/good-json/expected/index.js";
import { registry as tupleRegistry } from "../fixtures/good-tuple/expected/index.js";
import { demoOrder as stripOrder, registry as stripRegistry } from "../fixtures/good-refs-strip/expected/index.js";
import { demoTree as recursiveTree, registry as recursiveRegistry } from "../fixtures/good-recursive/expected/index.js";
import { demoProfile, registry as sensitiveRegistry } from "../fixtures/good-sensitive/expected/index.js";
import { agentTask as task } from "../support/agent-task.js";

/** `[a, a]` nested `levels` times over one array: `levels + 1` arrays, 2^levels leaves as JSON. */
const dag = (levels: number): unknown[] => {
  let a: unknown[] = [];
  for (let i = 0; i < levels; i++) a = [a, a];
  return a;
};

const call = (fields: Record<string, unknown>): Record<string, unknown> => ({
  contract: "demo.tool_call",
  version: "1.0",
  tool: "search",
  call_id: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
  attempt: 1,
  arguments: null,
  ...fields,
});

type Decoder = { decode(contract: string, input: unknown, options?: { traceId?: string; from?: string }): { ok: boolean; value?: unknown; error?: { class: string; code: string }; issues?: { path: string; code: string }[] } };

const TRACE = "TRACE-1";

describe("a value sharing objects (2^26 values as JSON)", () => {
  const shared = dag(26);

  it("is refused by every walk over an arbitrary value, past MAX_NODES", () => {
    expect(() => snapshot(shared)).toThrow(RangeError);
    expect(jsonFault(shared)).toBe("json");
    expect(() => canonicalJson(shared)).toThrow(RangeError);
    expect(() => hasDuplicates([shared, 1])).toThrow(RangeError);
    expect(isJsonData(shared)).toBe(false);
    // A pii value too large to hash is no marker; a json value past the walk is not kept.
    const record = redact(call({ arguments: shared, meta: shared }), demoToolCall.v1_0.shape, { internal: true }) as Record<string, unknown>;
    expect(record["arguments"]).toBe(REDACTED);
    expect(record["meta"]).toBe(REDACTED);
  });

  it("is counted as it is reached: a wide array reached again and again is refused too", () => {
    const wide = Array.from({ length: 1_000 }, () => 0);
    const many = Array.from({ length: 10_000 }, () => wide);
    expect(() => snapshot(many)).toThrow(RangeError);
    expect(jsonFault(many)).toBe("json");
    expect(isJsonData(many)).toBe(false);
  });

  it("fails a traced, persisted or plain decode as INVALID_INPUT, alike, never aborting", () => {
    // Every decode judges the value where it stands, bounded by the contract (traced and persisted
    // ones too: they read it as the plain one does): an unknown key is SCHEMA_INVALID without its
    // value being read. Under an unknown key, in a `unique` list (canonical JSON).
    for (const value of [{ ...task(), extra: shared }, { ...task(), constraints: [shared, shared] }]) {
      const records: DecodeRecord[] = [];
      const codes = new Set<string>();
      for (const [runtime, options] of [
        [createRuntime(registry), {}],
        [createRuntime(registry), { traceId: TRACE }],
        [createRuntime(registry, { persist: { write: (r) => records.push(r) } }), {}],
      ] as const) {
        const decoded = runtime.decode("agent.task", value, options);
        expect(decoded.ok).toBe(false);
        if (!decoded.ok) expect(decoded.error.class).toBe("INVALID_INPUT");
        if (!decoded.ok) codes.add(decoded.error.code);
      }
      expect(codes.size).toBe(1);
      expect(records[0]).toMatchObject({ outcome: "INVALID_INPUT", code: [...codes][0] });
      expect(checkTask(value)).toBe(false);
    }
  });

  it("in a `json` field: check, read and every decoder agree, without expanding it", () => {
    const value = call({ results: [shared] });
    const v = demoToolCall.v1_0;
    expect(v.check(value)).toBe(false);
    expect(v.read(value)).toBeUndefined();
    for (const options of [{}, { traceId: TRACE }]) {
      expect((createRuntime(jsonRegistry) as Decoder).decode("demo.tool_call", value, options)).toMatchObject({ ok: false, error: { class: "INVALID_INPUT" } });
    }
    expect((jsonRegistry as Decoder).decode("demo.tool_call", value)).toMatchObject({ ok: false, error: { class: "INVALID_INPUT" } });
  });
});

describe("a JS value that cannot be read, traced or not", () => {
  const outcomes = (value: unknown): unknown[] => {
    const plain = createRuntime(registry).decode("agent.task", value);
    const traced = createRuntime(registry).decode("agent.task", value, { traceId: TRACE });
    return [plain, traced].map((d) => (d.ok ? "ok" : `${d.error.class} ${d.error.code}`));
  };

  it("a cycle under an unknown key is SCHEMA_INVALID either way: the unknown key, its value unread", () => {
    const value = task();
    value["extra"] = value;
    expect(outcomes(value)).toEqual(["INVALID_INPUT SCHEMA_INVALID", "INVALID_INPUT SCHEMA_INVALID"]);
  });

  it("a throwing getter or trap is INVALID_INPUT either way, never an exception", () => {
    const getter = Object.defineProperty(task(), "goal", {
      enumerable: true,
      get: () => {
        throw new Error("getter");
      },
    });
    const ownKeys = new Proxy(task(), {
      ownKeys: () => {
        throw new Error("trap");
      },
    });
    for (const value of [getter, ownKeys]) expect(outcomes(value)).toEqual(["INVALID_INPUT UNPARSEABLE", "INVALID_INPUT UNPARSEABLE"]);
    expect(errorsTask(getter)).toEqual([expect.objectContaining({ path: "", code: "parse" })]);
  });
});

describe("a reply from a provider: a tuple's positions are its own keys, and only they", () => {
  const point = { contract: "demo.geo_point", version: "1.0", name: "Bern" };
  const decoders: [string, () => Decoder][] = [
    ["runtime", () => createRuntime(tupleRegistry) as Decoder],
    ["traced runtime", () => ({ decode: (c, i, o) => (createRuntime(tupleRegistry) as Decoder).decode(c, i, { ...o, traceId: TRACE }) })],
    ["registry", () => tupleRegistry as Decoder],
  ];

  it.each(decoders)("%s: a tuple keyed by position decodes; an extra key fails at the tuple, not dropped", (_, make) => {
    const decoder = make();
    expect(decoder.decode("demo.geo_point", { ...point, position: { 0: 7.44, 1: 46.95 } }, { from: "openai" })).toMatchObject({ ok: true, value: { position: [7.44, 46.95] } });
    const extra = decoder.decode("demo.geo_point", { ...point, position: { 0: 7.44, 1: 46.95, 2: "smuggled" } }, { from: "openai" });
    expect(extra.ok).toBe(false);
    expect(extra.issues).toEqual([expect.objectContaining({ path: "/position", code: "type" })]);
  });

  it.each(decoders)("%s: positions the reply only inherits are not its own", (_, make) => {
    const inherited = Object.create({ 0: 7.44, 1: 46.95 }) as object;
    const decoded = make().decode("demo.geo_point", { ...point, position: inherited }, { from: "openai" });
    expect(decoded.ok).toBe(false);
  });
});

describe("check and read agree on a json field", () => {
  const v = demoToolCall.v1_0;

  it("a getter inside it is read once, as the snapshot reads it: both accept what it gives", () => {
    const args = Object.defineProperty({}, "query", { enumerable: true, get: () => "treaty" });
    const value = call({ arguments: args });
    expect(v.check(value)).toBe(true);
    expect(v.read(value)).toMatchObject({ arguments: { query: "treaty" } });
    expect(Object.getOwnPropertyDescriptor((v.read(value) as { arguments: object }).arguments, "query")).toHaveProperty("value", "treaty");
    const nan = call({ arguments: Object.defineProperty({}, "n", { enumerable: true, get: () => NaN }) });
    expect([v.check(nan), v.read(nan)]).toEqual([false, undefined]);
  });
});

describe("records of an invalid json value", () => {
  it("replace it whole, keys included, as they replace any invalid value", () => {
    const records: DecodeRecord[] = [];
    const runtime = createRuntime(jsonRegistry, { persist: { write: (r) => records.push(r), internal: true } });
    const oversized = { "customer-4711@example.com": "x".repeat(1_000) };
    const decoded = runtime.decode("demo.tool_call", call({ meta: oversized, arguments: [[[[[1]]]]] }));
    expect(decoded.ok).toBe(false);
    const payload = records[0]!.payload as Record<string, unknown>;
    expect(payload["meta"]).toBe(REDACTED);
    expect(payload["arguments"]).toBe(REDACTED);
    expect(JSON.stringify(payload)).not.toContain("customer-4711");
    // Within its bounds, a json value is still kept whole.
    runtime.decode("demo.tool_call", call({ meta: { ok: 1 }, arguments: [1] }));
    expect(records[1]!.payload).toMatchObject({ meta: { ok: 1 }, arguments: [1] });
  });
});

describe("a recursive type's values sharing objects, within maxDepth and maxItems", () => {
  // Sixteen levels of a node whose four children are one node: 17 objects, 4^16 nodes as JSON.
  const shared = (): Record<string, unknown> => {
    let node: Record<string, unknown> = { label: "leaf", children: [] };
    for (let i = 0; i < 15; i++) node = { label: "x", children: [node, node, node, node] };
    return { contract: "demo.tree", version: "1.0", tree: node, document: { title: "t", paragraphs: [] } };
  };
  const tree = recursiveTree.v1_0;

  it("check, read and errors stop past MAX_NODES values of recursive types, and agree", () => {
    const value = shared();
    expect(tree.check(value)).toBe(false);
    expect(tree.read(value)).toBeUndefined();
    expect(tree.errors(value)).toContainEqual(expect.objectContaining({ code: "depth", expected: `at most ${MAX_NODES} values of recursive types` }));
    // The count is per call: a small tree after it passes.
    expect(tree.check({ ...value, tree: { label: "root", children: [] } })).toBe(true);
  });

  it("fails every decode as INVALID_INPUT, where read copied it until Node ran out of memory", () => {
    for (const options of [{}, { traceId: TRACE }]) {
      expect((createRuntime(recursiveRegistry) as Decoder).decode("demo.tree", shared(), options)).toMatchObject({ ok: false, error: { class: "INVALID_INPUT" } });
    }
    expect((recursiveRegistry as Decoder).decode("demo.tree", shared())).toMatchObject({ ok: false, error: { class: "INVALID_INPUT" } });
  });
});

describe("an unknown key of a strip object, which decode drops", () => {
  const order = (): Record<string, unknown> => ({
    contract: "demo.order",
    version: "1.1",
    order_id: "O-1",
    placed_at: "2026-11-29T10:00:00+01:00",
    items: [{ sku: "A1", quantity: 2, note: null }],
  });

  it("holding a cycle, a throwing getter or a DAG: check, read and every decoder pass the payload, and drop the key", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    const throwing = Object.defineProperty({}, "x", {
      enumerable: true,
      get: () => {
        throw new Error("getter");
      },
    });
    for (const extra of [cyclic, throwing, dag(26)]) {
      const value = { ...order(), extra };
      expect(stripOrder.v1_1.check(value)).toBe(true);
      expect(stripOrder.v1_1.read(value)).toBeDefined();
      for (const decoder of [createRuntime(stripRegistry) as Decoder, stripRegistry as Decoder]) {
        const decoded = decoder.decode("demo.order", value) as { ok: boolean; value?: Record<string, unknown>; stripped?: string[] };
        expect(decoded.ok).toBe(true);
        expect(decoded.value).not.toHaveProperty("extra");
        expect(decoded.stripped).toEqual(["/extra"]);
      }
    }
  });
});

describe("a value whose copy by `read` passes MAX_NODES (history: 10 maps of lists, one map shared)", () => {
  // demo.profile's history is a list (maxItems 10) of maps of lists (maxItems 10) of Reference. One
  // map of 12,000 keys, each the same list of 10 shared References, is about 612,000 values: each
  // snapshot of it passes, but `read` took one per item and copied 6 million values for a valid
  // payload (a list of lists without maxItems, reached the same way, aborted Node out of memory).
  const contact = { channel: "EMAIL", email: "user@example.com" };
  let sinceReads = 0;
  const reference = Object.defineProperty({ contact }, "since", {
    enumerable: true,
    get: () => {
      sinceReads++;
      return 2000;
    },
  });
  const list = Array.from({ length: 10 }, () => reference);
  const map = Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`k${i}`, list]));
  const profile = (fields: Record<string, unknown>): Record<string, unknown> => ({
    contract: "demo.profile",
    version: "1.0",
    user_id: "u42",
    tier: "PRO",
    name: "x",
    password: "x",
    audit: "x",
    active: true,
    contact,
    address: { city: "x", street: "x", gate_code: "x" },
    contacts: [],
    login: { method: "sso", provider: "acme", subject: "x" },
    history: Array.from({ length: 10 }, () => map),
    backup_codes: [],
    home: { lat: 1, lon: 2 },
    credential: { contract: "demo.credential", version: "1.0", label: "x", scope: "READ", token: "x", holder: "x" },
    devices: [],
    ...fields,
  });

  it("is refused by `read`, and decoded by no runtime or registry: UNPARSEABLE", () => {
    expect(demoProfile.v1_0.read(profile({}))).toBeUndefined();
    for (const decoder of [sensitiveRegistry, createRuntime(sensitiveRegistry), createRuntime(sensitiveRegistry, { persist: { write: () => undefined } })] as Decoder[]) {
      const decoded = decoder.decode("demo.profile", profile({}));
      expect(decoded.ok).toBe(false);
      expect(decoded.error).toMatchObject({ class: "INVALID_INPUT", code: "UNPARSEABLE" });
    }
  });

  it("is not then judged where it stands (errors would walk all of it): the decode reads at most MAX_NODES of it", () => {
    // `home` is wrong too, after `history`: judging the value itself found that only after reading every `since`.
    for (const decoder of [sensitiveRegistry, createRuntime(sensitiveRegistry)] as Decoder[]) {
      sinceReads = 0;
      const decoded = decoder.decode("demo.profile", profile({ home: { lat: "north", lon: 2 } }));
      expect(decoded.ok).toBe(false);
      expect(decoded.error).toMatchObject({ class: "INVALID_INPUT", code: "UNPARSEABLE" });
      expect(sinceReads).toBeLessThan(MAX_NODES); // judged where it stands: 1,200,000
    }
  });
});
