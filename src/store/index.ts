// "treaty/store": the event store interface and the in-memory store. Dependency-free like the
// runtime; the SQLite store is "treaty/store-sqlite".
export { EVENT_FIELDS, STORE_JSON_DEPTH, checkEvent, type AgentEvent, type GateResult } from "./event.js";
export {
  PERCENTILES,
  nearestRank,
  type AggregateQuery,
  type AppendResult,
  type ConsumeResult,
  type DurationAggregate,
  type EventQuery,
  type EventStore,
  type IdempotencyConflict,
  type IdempotencyRef,
  type LookupResult,
  type RecordResult,
} from "./event-store.js";
export { createMemoryStore } from "./memory-store.js";
export { STORE_ERRORS, StoreError, type StoreErrorCode } from "./store-error.js";
