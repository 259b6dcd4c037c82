// Agent events for the store tests: one valid event to vary by hand, and an arbitrary of events
// whose filters collide often (few sessions, agents, types and instants) so queries select subsets.
import fc from "fast-check";
import { canonicalHash } from "../../src/runtime/index.js";
import type { AgentEvent } from "../../src/store/index.js";

export const HASH = canonicalHash({ origin: "CDG", destination: "JFK" });

/** A valid `agent.run` event: number `n` gets its own id and a start `n` seconds after the base instant. */
export const agentEvent = (n: number, overrides: Partial<AgentEvent> = {}): AgentEvent => ({
  id: `EV-${String(n).padStart(4, "0")}`,
  session: "S-1",
  agent: "booking.availability_search",
  type: "agent.run",
  at: new Date(Date.UTC(2026, 0, 31, 9, 30, n)).toISOString(),
  durationUs: 1000 + n,
  gates: [
    { gate: "intent_lock", outcome: "pass", codes: [] },
    { gate: "schema_in", outcome: "pass", codes: [] },
  ],
  confidence: 0.93,
  inputHash: HASH,
  outcome: "ok",
  payload: { offers: [{ offer_id: `OF-${n}`, passenger: "[pii:0123456789abcdef]" }] },
  ...overrides,
});

const instant = fc.integer({ min: 0, max: 40 }).map((s) => new Date(Date.UTC(2026, 0, 31, 9, 30, s)).toISOString());

export const arbitraryEvent: fc.Arbitrary<AgentEvent> = fc
  .record({
    id: fc.stringMatching(/^[!-~]{1,6}$/),
    session: fc.constantFrom("S-1", "S-2", "S-3"),
    agent: fc.constantFrom("a.resolve", "a.search", "a.ticket"),
    type: fc.constantFrom("agent.run", "agent.withheld"),
    at: instant,
    durationUs: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
    gates: fc.array(fc.record({ gate: fc.constantFrom("schema_in", "approval"), outcome: fc.constantFrom("pass" as const, "fail" as const), codes: fc.array(fc.constantFrom("required", "APPROVAL_EXPIRED")) }), { maxLength: 3 }),
    confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    inputHash: fc.constant(HASH),
    payload: fc.option(fc.jsonValue(), { nil: undefined }),
  })
  .map(({ confidence, payload, ...event }) => ({
    ...event,
    outcome: "ok" as const,
    ...(confidence !== undefined && { confidence }),
    ...(payload !== undefined && { payload: payload as AgentEvent["payload"] }),
  }));

export const arbitraryQuery = fc.record(
  {
    session: fc.constantFrom("S-1", "S-2", "S-3", "S-9"),
    agent: fc.constantFrom("a.resolve", "a.search", "a.ticket"),
    type: fc.constantFrom("agent.run", "agent.withheld"),
    from: instant,
    to: instant,
    limit: fc.integer({ min: 1, max: 30 }),
  },
  { requiredKeys: [] },
).filter((q) => q.from === undefined || q.to === undefined || q.from <= q.to);

/** Event `n` of the kill test: a 64 KB payload, so one event spans many pages of the file. */
export const bulkyEvent = (n: number): AgentEvent => agentEvent(n, { id: `EV-${String(n).padStart(6, "0")}`, payload: { n, blob: "x".repeat(65_536) } });
