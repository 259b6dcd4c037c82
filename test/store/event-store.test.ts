// The behaviour every EventStore has, run against the in-memory and the SQLite store alike.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { canonicalHash, type JsonValue } from "../../src/runtime/index.js";
import { STORE_JSON_DEPTH, StoreError, type AgentEvent, type EventStore, type StoreErrorCode } from "../../src/store/index.js";
import { HASH, agentEvent } from "../support/agent-events.js";
import { STORE_KINDS } from "../support/stores.js";

const codeOf = (work: () => unknown): { code: StoreErrorCode; paths: string[] } | undefined => {
  try {
    work();
  } catch (error) {
    if (error instanceof StoreError) return { code: error.code, paths: error.issues.map((i) => i.path) };
    throw error;
  }
  return undefined;
};

/** A JSON value of `levels` arrays, one in the other. */
const nested = (levels: number): JsonValue => {
  let value: JsonValue = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

const ids = (events: readonly AgentEvent[]) => events.map((e) => e.id);

describe.each(STORE_KINDS)("$name event store", (kind) => {
  let store: EventStore;
  beforeEach(() => {
    store = kind.open();
  });
  afterEach(() => store.close());
  afterAll(() => kind.cleanup());

  describe("append", () => {
    it("keeps an event and returns it whole", () => {
      const event = agentEvent(1, { outcome: "POLICY_DENIED", code: "APPROVAL_EXPIRED", confidence: 0.5 });
      expect(store.append(event)).toEqual({ ok: true, duplicate: false });
      expect(store.query()).toEqual([event]);
    });

    it("stores one event for the same id appended twice, whatever the key order", () => {
      const event = agentEvent(1);
      store.append(event);
      const reordered = Object.fromEntries(Object.entries(event).reverse()) as unknown as AgentEvent;
      expect(store.append(reordered)).toEqual({ ok: true, duplicate: true });
      expect(store.query()).toHaveLength(1);
    });

    it("refuses the same id with other contents as a conflict, keeping the first", () => {
      store.append(agentEvent(1));
      expect(store.append(agentEvent(1, { durationUs: 5 }))).toEqual({ ok: false, code: "EVENT_CONFLICT", id: "EV-0001" });
      expect(store.query()[0]!.durationUs).toBe(1001);
    });

    it("keeps a copy: changing the appended or returned object changes nothing stored", () => {
      const event = structuredClone(agentEvent(1)) as unknown as { payload: { offers: { offer_id: string }[] } };
      store.append(event as unknown as AgentEvent);
      event.payload.offers[0]!.offer_id = "changed";
      (store.query()[0]!.payload as unknown as typeof event.payload).offers[0]!.offer_id = "changed too";
      expect(store.query()).toEqual([agentEvent(1)]);
    });

    it.each([
      ["a missing field", { ...agentEvent(1), session: undefined }, ["/session"]],
      ["an unknown key", { ...agentEvent(1), extra: 1 }, ["/extra"]],
      ["a timestamp in another form", agentEvent(1, { at: "2026-01-31T10:30:00+01:00" }), ["/at"]],
      ["an impossible date", agentEvent(1, { at: "2026-02-30T09:30:00.000Z" }), ["/at"]],
      ["a fractional duration", agentEvent(1, { durationUs: 1.5 }), ["/durationUs"]],
      ["a confidence above 1", agentEvent(1, { confidence: 1.2 }), ["/confidence"]],
      ["an input hash that is not SHA-256 hex", agentEvent(1, { inputHash: "abc" }), ["/inputHash"]],
      ["an unknown outcome", agentEvent(1, { outcome: "BROKEN" as never, code: "X" }), ["/outcome"]],
      ["a failure without its code", agentEvent(1, { outcome: "CONFLICT" }), ["/code"]],
      ["a gate outcome outside pass and fail", agentEvent(1, { gates: [{ gate: "approval", outcome: "maybe" as never, codes: [] }] }), ["/gates/0/outcome"]],
      ["a payload that is not JSON", agentEvent(1, { payload: { when: new Date(0) } as never }), ["/payload/when"]],
      // Neither has a JSON form: stored, the event could not be read back.
      ["an optional field set to undefined", { ...agentEvent(1), confidence: undefined }, ["/confidence"]],
      ["a payload list with a hole", agentEvent(1, { payload: [1, , 2] as never }), ["/payload/1"]],
      ["an id with a space", agentEvent(1, { id: "EV 1" }), ["/id"]],
    ])("refuses %s with INVALID_EVENT at its path, storing nothing", (_, event, paths) => {
      expect(codeOf(() => store.append(event as AgentEvent))).toEqual({ code: "INVALID_EVENT", paths });
      expect(store.query()).toEqual([]);
    });

    it("refuses a value that is not an object", () => {
      expect(codeOf(() => store.append(null as never))).toEqual({ code: "INVALID_EVENT", paths: [""] });
    });

    // 10,000 levels is 20 kB of JSON: it overflowed the call stack of the check (RangeError).
    it(`keeps a payload nested ${STORE_JSON_DEPTH} levels deep, and refuses one nested deeper with INVALID_EVENT at the first level past it`, () => {
      const deepest = nested(STORE_JSON_DEPTH);
      expect(store.append(agentEvent(1, { payload: deepest }))).toEqual({ ok: true, duplicate: false });
      expect(store.query()[0]!.payload).toEqual(deepest);
      expect(codeOf(() => store.append(agentEvent(2, { payload: nested(STORE_JSON_DEPTH + 1) })))).toEqual({ code: "INVALID_EVENT", paths: [`/payload${"/0".repeat(STORE_JSON_DEPTH)}`] });
      expect(codeOf(() => store.append(agentEvent(3, { payload: nested(10_000) })))).toEqual({ code: "INVALID_EVENT", paths: [`/payload${"/0".repeat(STORE_JSON_DEPTH)}`] });
      expect(ids(store.query())).toEqual(["EV-0001"]);
    });

    // [a, a] 21 times over is 2^21 values as JSON though it holds 22 arrays: canonical JSON of it threw RangeError.
    it("refuses a payload of more than a million values, shared objects counted each time, with INVALID_EVENT", () => {
      let shared: unknown[] = [0];
      for (let i = 0; i < 21; i++) shared = [shared, shared];
      expect(codeOf(() => store.append(agentEvent(1, { payload: shared as never })))).toEqual({ code: "INVALID_EVENT", paths: ["/payload"] });
      let fits: unknown[] = [0];
      for (let i = 0; i < 18; i++) fits = [fits, fits];
      expect(store.append(agentEvent(2, { payload: fits as never }))).toEqual({ ok: true, duplicate: false });
      expect(ids(store.query())).toEqual(["EV-0002"]);
    });
  });

  describe("query", () => {
    beforeEach(() => {
      // Appended out of order, with two events at the same instant.
      store.append(agentEvent(3, { session: "S-2" }));
      store.append(agentEvent(1));
      store.append(agentEvent(2, { agent: "booking.offer_builder", type: "agent.withheld", outcome: "INVALID_INPUT", code: "CONFIDENCE_TOO_LOW" }));
      store.append(agentEvent(4, { id: "EV-0000", at: agentEvent(3).at }));
    });

    it("orders by timestamp, then by id", () => {
      expect(ids(store.query())).toEqual(["EV-0001", "EV-0002", "EV-0000", "EV-0003"]);
    });

    it("filters by session, agent and type, together", () => {
      expect(ids(store.query({ session: "S-1" }))).toEqual(["EV-0001", "EV-0002", "EV-0000"]);
      expect(ids(store.query({ agent: "booking.offer_builder" }))).toEqual(["EV-0002"]);
      expect(ids(store.query({ type: "agent.run", session: "S-1" }))).toEqual(["EV-0001", "EV-0000"]);
      expect(store.query({ session: "S-9" })).toEqual([]);
    });

    it("takes a half-open time window: from included, to excluded", () => {
      expect(ids(store.query({ from: agentEvent(2).at, to: agentEvent(3).at }))).toEqual(["EV-0002"]);
      expect(ids(store.query({ from: agentEvent(3).at }))).toEqual(["EV-0000", "EV-0003"]);
      expect(store.query({ from: agentEvent(2).at, to: agentEvent(2).at })).toEqual([]);
    });

    it("returns the first events of its order up to the limit", () => {
      expect(ids(store.query({ limit: 2 }))).toEqual(["EV-0001", "EV-0002"]);
      expect(ids(store.query({ session: "S-1", limit: 1 }))).toEqual(["EV-0001"]);
    });

    it.each([
      ["a misspelt filter", { sesion: "S-1" }, ["/sesion"]],
      ["a limit of 0", { limit: 0 }, ["/limit"]],
      ["a fractional limit", { limit: 1.5 }, ["/limit"]],
      ["a window ending before it starts", { from: agentEvent(3).at, to: agentEvent(1).at }, ["/to"]],
      ["a date without a time", { from: "2026-01-31" }, ["/from"]],
      ["a session that is not a string", { session: 7 }, ["/session"]],
    ])("refuses %s with INVALID_QUERY", (_, query, paths) => {
      expect(codeOf(() => store.query(query as never))).toEqual({ code: "INVALID_QUERY", paths });
    });
  });

  describe("aggregate", () => {
    it("counts and takes nearest-rank percentiles of durations", () => {
      // Durations 1..200 µs appended in reverse: p50 is the 100th smallest, p95 the 190th, p99 the 198th.
      for (let n = 200; n >= 1; n--) store.append(agentEvent(n % 60, { id: `EV-${n}`, durationUs: n }));
      expect(store.aggregate()).toEqual({ count: 200, durationUs: { p50: 100, p95: 190, p99: 198 } });
    });

    it("applies the same filters as query", () => {
      store.append(agentEvent(1, { durationUs: 10 }));
      store.append(agentEvent(2, { durationUs: 30, agent: "booking.ticket_issuance" }));
      store.append(agentEvent(3, { durationUs: 20 }));
      expect(store.aggregate({ agent: "booking.availability_search" })).toEqual({ count: 2, durationUs: { p50: 10, p95: 20, p99: 20 } });
      expect(store.aggregate({ from: agentEvent(2).at })).toEqual({ count: 2, durationUs: { p50: 20, p95: 30, p99: 30 } });
    });

    it("has no percentiles without events", () => {
      expect(store.aggregate({ session: "S-1" })).toEqual({ count: 0 });
    });

    it("takes no limit", () => {
      expect(codeOf(() => store.aggregate({ limit: 1 } as never))).toEqual({ code: "INVALID_QUERY", paths: ["/limit"] });
    });
  });

  describe("single-use tokens", () => {
    it("consumes a token once", () => {
      expect(store.consume("APR-1")).toEqual({ ok: true });
      expect(store.consume("APR-1")).toEqual({ ok: false, code: "TOKEN_CONSUMED" });
      expect(store.consume("APR-2")).toEqual({ ok: true });
    });

    it("refuses a malformed token id", () => {
      expect(codeOf(() => store.consume(""))?.code).toBe("INVALID_ARGUMENT");
    });
  });

  describe("idempotency claims", () => {
    const ref = { agent: "booking.ticket_issuance", key: "IDEM-7", inputHash: HASH };
    const T = 1_900_000_000_000;

    it("holds a key for one holder until it releases it or its claim runs out", () => {
      expect(store.claim!(ref, "RUN-a", T, T + 1000)).toEqual({ ok: true });
      expect(store.claim!(ref, "RUN-b", T + 10, T + 2000)).toEqual({ ok: false, code: "IDEMPOTENCY_IN_PROGRESS" });
      // The holder may renew its own claim; another's release ends nothing.
      expect(store.claim!(ref, "RUN-a", T + 20, T + 1500)).toEqual({ ok: true });
      store.release!(ref, "RUN-b");
      expect(store.claim!(ref, "RUN-b", T + 30, T + 2000)).toEqual({ ok: false, code: "IDEMPOTENCY_IN_PROGRESS" });
      store.release!(ref, "RUN-a");
      expect(store.claim!(ref, "RUN-b", T + 40, T + 2000)).toEqual({ ok: true });
      // A claim past its until (its run died) no longer stands.
      expect(store.claim!(ref, "RUN-c", T + 2000, T + 3000)).toEqual({ ok: true });
      // Scoped to the agent, like the records.
      expect(store.claim!({ ...ref, agent: "booking.offer_builder" }, "RUN-d", T, T + 1)).toEqual({ ok: true });
    });

    it("refuses a malformed holder or instants as INVALID_ARGUMENT", () => {
      expect(codeOf(() => store.claim!(ref, "", T, T + 1))?.code).toBe("INVALID_ARGUMENT");
      expect(codeOf(() => store.claim!(ref, "RUN-a", T, T))?.code).toBe("INVALID_ARGUMENT");
      expect(codeOf(() => store.claim!(ref, "RUN-a", Number.NaN, T))?.code).toBe("INVALID_ARGUMENT");
      expect(codeOf(() => store.release!(ref, "x".repeat(300)))?.code).toBe("INVALID_ARGUMENT");
    });
  });

  describe("idempotency records", () => {
    const ref = { agent: "booking.ticket_issuance", key: "IDEM-42", inputHash: HASH };
    const result = { ticket: "TK-1", amount: 412.5 };

    it("finds nothing before a result is recorded, and the result after", () => {
      expect(store.lookup(ref)).toEqual({ ok: true, found: false });
      expect(store.recordResult(ref, result)).toEqual({ ok: true, recorded: true, result });
      expect(store.lookup(ref)).toEqual({ ok: true, found: true, result });
    });

    it("keeps the first result when the same key and input are recorded again", () => {
      store.recordResult(ref, result);
      expect(store.recordResult(ref, { ticket: "TK-2", amount: 1 })).toEqual({ ok: true, recorded: false, result });
    });

    it("is a conflict for the same key with another input, on lookup and on record", () => {
      store.recordResult(ref, result);
      const other = { ...ref, inputHash: canonicalHash({ origin: "CDG", destination: "LHR" }) };
      expect(store.lookup(other)).toEqual({ ok: false, code: "IDEMPOTENCY_CONFLICT" });
      expect(store.recordResult(other, result)).toEqual({ ok: false, code: "IDEMPOTENCY_CONFLICT" });
    });

    it("scopes keys to their agent", () => {
      store.recordResult(ref, result);
      expect(store.lookup({ ...ref, agent: "booking.offer_builder", inputHash: canonicalHash(1) })).toEqual({ ok: true, found: false });
    });

    it("refuses a malformed reference or a result that is not JSON", () => {
      expect(codeOf(() => store.lookup({ ...ref, inputHash: "x" }))).toEqual({ code: "INVALID_ARGUMENT", paths: ["/inputHash"] });
      expect(codeOf(() => store.recordResult(ref, { n: Number.NaN }))).toEqual({ code: "INVALID_ARGUMENT", paths: ["/result/n"] });
      expect(codeOf(() => store.recordResult(ref, nested(10_000)))).toEqual({ code: "INVALID_ARGUMENT", paths: [`/result${"/0".repeat(STORE_JSON_DEPTH)}`] });
      expect(store.lookup(ref)).toEqual({ ok: true, found: false });
    });
  });

  it("refuses every call once closed, and closes twice without error", () => {
    store.close();
    store.close();
    expect(codeOf(() => store.append(agentEvent(1)))?.code).toBe("STORE_CLOSED");
    expect(codeOf(() => store.query())?.code).toBe("STORE_CLOSED");
    expect(codeOf(() => store.consume("APR-1"))?.code).toBe("STORE_CLOSED");
  });
});
