// The event store in memory: for tests and single-process hosts that keep nothing across restarts.
// It keeps each event as its JSON text (a copy the caller cannot change) beside the fields queries
// filter on; a second event with a stored id is compared by canonical JSON, so key order does not
// make a duplicate a conflict.
import { canonicalJson } from "../runtime/canonical-json.js";
import type { AgentEvent } from "./event.js";
import {
  PERCENTILES,
  checkClaim,
  checkIdempotency,
  checkQuery,
  checkTokenId,
  checkedEvent,
  compareEvents,
  lookupOutcome,
  matches,
  nearestRank,
  recordOutcome,
  type AggregateQuery,
  type EventStore,
  type RecordedResult,
} from "./event-store.js";
import { StoreError } from "./store-error.js";

/** What queries filter and aggregate on (strings and a number: nothing the caller can change), and the event as JSON. */
type Stored = Pick<AgentEvent, "session" | "agent" | "type" | "at" | "id" | "durationUs"> & { readonly body: string };

const parse = (body: string): AgentEvent => JSON.parse(body) as AgentEvent;

/** A new, empty in-memory store. Its tokens and idempotency records are its own: no other store sees them. */
export const createMemoryStore = (): EventStore => {
  const events = new Map<string, Stored>();
  const tokens = new Set<string>();
  // Per agent, then per key: no separator to escape between the two.
  const results = new Map<string, Map<string, RecordedResult>>();
  // Claims by agent and key (JSON of the pair: no separator to escape).
  const claims = new Map<string, { readonly holder: string; readonly until: number }>();
  let open = true;

  const ensureOpen = (): void => {
    if (!open) throw new StoreError("STORE_CLOSED", "the in-memory store was closed");
  };
  const select = (query: AggregateQuery): Stored[] => [...events.values()].filter((stored) => matches(stored, query));

  return {
    append(event) {
      ensureOpen();
      const checked = checkedEvent(event);
      const stored = events.get(checked.id);
      if (stored !== undefined) return canonicalJson(parse(stored.body)) === canonicalJson(checked) ? { ok: true, duplicate: true } : { ok: false, code: "EVENT_CONFLICT", id: checked.id };
      const { id, session, agent, type, at, durationUs } = checked;
      events.set(id, { id, session, agent, type, at, durationUs, body: JSON.stringify(checked) });
      return { ok: true, duplicate: false };
    },

    query(query) {
      ensureOpen();
      const { limit, ...filters } = checkQuery(query, true);
      const found = select(filters).sort(compareEvents);
      return (limit === undefined ? found : found.slice(0, limit)).map((stored) => parse(stored.body));
    },

    aggregate(query) {
      ensureOpen();
      const durations = select(checkQuery(query, false))
        .map((stored) => stored.durationUs)
        .sort((a, b) => a - b);
      if (durations.length === 0) return { count: 0 };
      const [p50, p95, p99] = PERCENTILES.map((p) => durations[nearestRank(p, durations.length) - 1]!) as [number, number, number];
      return { count: durations.length, durationUs: { p50, p95, p99 } };
    },

    consume(tokenId) {
      ensureOpen();
      checkTokenId(tokenId);
      if (tokens.has(tokenId)) return { ok: false, code: "TOKEN_CONSUMED" };
      tokens.add(tokenId);
      return { ok: true };
    },

    lookup(ref) {
      ensureOpen();
      checkIdempotency(ref);
      return lookupOutcome(results.get(ref.agent)?.get(ref.key), ref.inputHash);
    },

    recordResult(ref, result) {
      ensureOpen();
      checkIdempotency(ref, { value: result });
      const record = { inputHash: ref.inputHash, result: canonicalJson(result) };
      return recordOutcome(results.get(ref.agent)?.get(ref.key), record, () =>
        results.set(ref.agent, (results.get(ref.agent) ?? new Map<string, RecordedResult>()).set(ref.key, record)),
      );
    },

    claim(ref, holder, now, until) {
      ensureOpen();
      checkIdempotency(ref);
      checkClaim(holder, now, until);
      const id = JSON.stringify([ref.agent, ref.key]);
      const standing = claims.get(id);
      if (standing !== undefined && standing.holder !== holder && standing.until > now) return { ok: false, code: "IDEMPOTENCY_IN_PROGRESS" };
      claims.set(id, { holder, until });
      return { ok: true };
    },

    release(ref, holder) {
      ensureOpen();
      checkIdempotency(ref);
      checkClaim(holder);
      const id = JSON.stringify([ref.agent, ref.key]);
      if (claims.get(id)?.holder === holder) claims.delete(id);
    },

    close() {
      open = false;
    },
  };
};
