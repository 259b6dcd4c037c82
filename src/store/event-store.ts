// The one interface of treaty's event stores, and what both implementations share so they cannot
// drift apart: the argument checks, the filter, the order and the percentile method.
//
// Synchronous on purpose: both stores are embedded (better-sqlite3 is synchronous), and a
// synchronous `consume` is atomic with nothing to interleave. A pipeline that `await`s each call
// keeps working should an asynchronous store ever implement a promise-returning variant.
import type { Issue } from "../runtime/issue.js";
import type { JsonValue } from "../runtime/repair.js";
import { isRecord } from "../runtime/is-record.js";
import { checkEvent, checkJson, checkKeys, issue, isHash, isIdent, isInstant, type AgentEvent } from "./event.js";
import { StoreError, type StoreErrorCode } from "./store-error.js";

/**
 * Which events: each given filter must match (absent filters match everything). The window is
 * half-open, `from <= at < to`, so adjacent windows never count an event twice.
 */
export interface EventQuery {
  readonly session?: string;
  readonly agent?: string;
  readonly type?: string;
  /** Inclusive; the same instant form as `AgentEvent.at`. */
  readonly from?: string;
  /** Exclusive. */
  readonly to?: string;
  /** At most this many events (a whole number from 1), the first ones in the query's order. */
  readonly limit?: number;
}

export type AggregateQuery = Omit<EventQuery, "limit">;

/** Percentiles of `durationUs` by nearest rank: the smallest duration with at least p% of the matching events at or below it. */
export interface DurationAggregate {
  readonly count: number;
  /** Absent when no event matches. */
  readonly durationUs?: { readonly p50: number; readonly p95: number; readonly p99: number };
}

/** A stored event is never overwritten: the same id with other contents is a conflict, and the first one stays. */
export type AppendResult = { readonly ok: true; readonly duplicate: boolean } | { readonly ok: false; readonly code: "EVENT_CONFLICT"; readonly id: string };

/** `TOKEN_CONSUMED`: the token was consumed before (by this store or another connection to its file). */
export type ConsumeResult = { readonly ok: true } | { readonly ok: false; readonly code: "TOKEN_CONSUMED" };

/**
 * A mutation's idempotency key, scoped to its agent (two agents may use the same key values), and
 * the hash of the input it came with (`canonicalHash(input)`).
 */
export interface IdempotencyRef {
  readonly agent: string;
  /** The value of the input's `role: idempotency_key` field; any non-empty string up to 1,024 characters. */
  readonly key: string;
  readonly inputHash: string;
}

/** The same key with another input hash is a conflict: a different request reusing a key. */
export type IdempotencyConflict = { readonly ok: false; readonly code: "IDEMPOTENCY_CONFLICT" };

export type LookupResult = { readonly ok: true; readonly found: false } | { readonly ok: true; readonly found: true; readonly result: JsonValue } | IdempotencyConflict;

/** `IDEMPOTENCY_IN_PROGRESS`: another run holds the key (through this store or another connection to its file) and has not released it. */
export type ClaimResult = { readonly ok: true } | { readonly ok: false; readonly code: "IDEMPOTENCY_IN_PROGRESS" };

/** `recorded: false` when the key already had a result for this input: `result` is that first one, which stays. */
export type RecordResult = { readonly ok: true; readonly recorded: boolean; readonly result: JsonValue } | IdempotencyConflict;

/**
 * Where agent runs go, and what the pipeline keeps between calls. Bad arguments and unusable stores
 * throw a `StoreError` with a stable code; expected outcomes are results.
 */
export interface EventStore {
  /** Keeps `event` (checked by `checkEvent`) unless its id is already stored. Whole or not at all. */
  append(event: AgentEvent): AppendResult;
  /** The matching events ordered by `at`, then `id` (so ties are ordered too). Copies: changing them changes nothing stored. */
  query(query?: EventQuery): AgentEvent[];
  /** Count and duration percentiles of the matching events. */
  aggregate(query?: AggregateQuery): DurationAggregate;
  /**
   * Marks a single-use token (an approval's id, checked and verified by the caller first) as used:
   * `ok` the first time only, atomically, even across connections to one SQLite file.
   */
  consume(tokenId: string): ConsumeResult;
  /** The recorded result of a mutation that succeeded with this key, if any. */
  lookup(ref: IdempotencyRef): LookupResult;
  /** Records the result of a mutation that succeeded (JSON only; redact it first if it holds sensitive fields). */
  recordResult(ref: IdempotencyRef, result: JsonValue): RecordResult;
  /**
   * Holds a mutation's key for the run (`holder`, an id) about to execute it: `ok` when no other
   * holder's claim stands, atomically, even across connections to one SQLite file. A claim stands
   * until its holder `release`s it or until `until` (milliseconds since the epoch, compared with
   * `now`): a run that died frees its key then. Optional: without it, the pipeline holds calls
   * with one key apart within its own process only.
   */
  claim?(ref: IdempotencyRef, holder: string, now: number, until: number): ClaimResult;
  /** Ends `holder`'s claim on the key, if it stands. */
  release?(ref: IdempotencyRef, holder: string): void;
  /** Releases the store; any later call throws `STORE_CLOSED`. Closing twice does nothing. */
  close(): void;
}

export const PERCENTILES = [50, 95, 99] as const;

/** What a store keeps per idempotency key: the input hash it came with and the result as canonical JSON. */
export interface RecordedResult {
  readonly inputHash: string;
  readonly result: string;
}

/** What `lookup` answers for the record found under a key (or none), asked with `inputHash`. */
export const lookupOutcome = (found: RecordedResult | undefined, inputHash: string): LookupResult => {
  if (found === undefined) return { ok: true, found: false };
  if (found.inputHash !== inputHash) return { ok: false, code: "IDEMPOTENCY_CONFLICT" };
  return { ok: true, found: true, result: JSON.parse(found.result) as JsonValue };
};

/**
 * What `recordResult` answers given the record already under the key (or none): the earlier
 * result or a conflict, else `insert` keeps `record` (the caller runs this atomically).
 */
export const recordOutcome = (earlier: RecordedResult | undefined, record: RecordedResult, insert: () => void): RecordResult => {
  const found = lookupOutcome(earlier, record.inputHash);
  if (!found.ok) return found;
  if (found.found) return { ok: true, recorded: false, result: found.result };
  insert();
  return { ok: true, recorded: true, result: JSON.parse(record.result) as JsonValue };
};

/** The 1-based rank of the p-th percentile of n sorted values (nearest rank); integer arithmetic, so exact. */
export const nearestRank = (p: number, n: number): number => Math.max(1, Math.ceil((p * n) / 100));

/** The order of `query`: by `at`, then by `id` (ASCII, so JavaScript's and SQLite's comparisons agree). */
export const compareEvents = (a: Pick<AgentEvent, "at" | "id">, b: Pick<AgentEvent, "at" | "id">): number => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const matches = (event: Pick<AgentEvent, "session" | "agent" | "type" | "at">, query: AggregateQuery): boolean =>
  (query.session === undefined || event.session === query.session) &&
  (query.agent === undefined || event.agent === query.agent) &&
  (query.type === undefined || event.type === query.type) &&
  (query.from === undefined || event.at >= query.from) &&
  (query.to === undefined || event.at < query.to);

const QUERY_KEYS = new Set(["session", "agent", "type", "from", "to", "limit"]);
const AGGREGATE_KEYS = new Set(["session", "agent", "type", "from", "to"]);

/** Throws `code` listing where `what` is wrong, when there are `issues`. */
const refuse = (code: StoreErrorCode, what: string, issues: readonly Issue[]): void => {
  if (issues.length > 0) throw new StoreError(code, `${what} has ${issues.length} problem(s) at ${issues.map((i) => i.path || "/").join(", ")}`, issues);
};

/**
 * `query` as given, or INVALID_QUERY: an unknown key (a misspelt filter would match everything),
 * a malformed id or instant, `to` before `from`, a limit that is not a whole number from 1.
 */
export const checkQuery = <Q extends EventQuery>(query: Q | undefined, withLimit: boolean): Q => {
  if (query === undefined) return {} as Q;
  if (!isRecord(query)) throw new StoreError("INVALID_QUERY", "a query is an object of filters", [issue("", "type", "a query object")]);
  const issues: Issue[] = [];
  checkKeys(query, "", withLimit ? QUERY_KEYS : AGGREGATE_KEYS, [], issues);
  for (const key of ["session", "agent", "type"] as const) if (query[key] !== undefined && !isIdent(query[key])) issues.push(issue(`/${key}`, "pattern", "1 to 256 printable ASCII characters"));
  for (const key of ["from", "to"] as const) if (query[key] !== undefined && !isInstant(query[key])) issues.push(issue(`/${key}`, "format", "an instant as toISOString prints it"));
  if (isInstant(query.from) && isInstant(query.to) && query.to < query.from) issues.push(issue("/to", "min", "an instant no earlier than from"));
  const limit = query.limit;
  if (withLimit && limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1)) issues.push(issue("/limit", "min", "a whole number from 1"));
  refuse("INVALID_QUERY", "the query", issues);
  return query;
};

/** `event` as given, or INVALID_EVENT with every issue `checkEvent` found. */
export const checkedEvent = (event: AgentEvent): AgentEvent => {
  refuse("INVALID_EVENT", "the event", checkEvent(event));
  return event;
};

const MAX_KEY = 1024;

/** Throws INVALID_ARGUMENT unless `ref` (and `result`, when given) are well-formed. */
export const checkIdempotency = (ref: IdempotencyRef, result?: { readonly value: unknown }): void => {
  const issues: Issue[] = [];
  if (!isRecord(ref)) issues.push(issue("", "type", "an object of agent, key and inputHash"));
  else {
    if (!isIdent(ref.agent)) issues.push(issue("/agent", "pattern", "an agent name"));
    if (!(typeof ref.key === "string" && ref.key.length >= 1 && ref.key.length <= MAX_KEY)) issues.push(issue("/key", "maxLength", `a string of 1 to ${MAX_KEY} characters`));
    if (!isHash(ref.inputHash)) issues.push(issue("/inputHash", "pattern", "64 lower-case hex digits"));
  }
  if (result !== undefined) checkJson(result.value, "/result", issues);
  refuse("INVALID_ARGUMENT", "the idempotency record", issues);
};

/** Throws INVALID_ARGUMENT unless `tokenId` is an id (1 to 256 printable ASCII characters). */
export const checkTokenId = (tokenId: string): void => {
  if (!isIdent(tokenId)) refuse("INVALID_ARGUMENT", "the token id", [issue("", "pattern", "1 to 256 printable ASCII characters")]);
};

/** Throws INVALID_ARGUMENT unless `claim`'s holder and instants are usable: an id, and whole milliseconds with `until` after `now`. */
export const checkClaim = (holder: string, now?: number, until?: number): void => {
  const issues: Issue[] = [];
  if (!isIdent(holder)) issues.push(issue("/holder", "pattern", "1 to 256 printable ASCII characters"));
  if (now !== undefined && !Number.isSafeInteger(now)) issues.push(issue("/now", "type", "milliseconds since the epoch"));
  if (until !== undefined && !(Number.isSafeInteger(until) && now !== undefined && until > now)) issues.push(issue("/until", "type", "milliseconds since the epoch, after now"));
  refuse("INVALID_ARGUMENT", "the claim", issues);
};
