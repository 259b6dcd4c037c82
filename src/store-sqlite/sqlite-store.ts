// The event store in one SQLite file (better-sqlite3, an optional peer dependency loaded when a
// store is opened, so importing this entry without it installed still works until then).
//
// Durability: WAL journal mode and one transaction per call that writes, so a process killed at
// any instant leaves each event whole or absent; the next open rolls the log back to its last
// commit. Each event is one row: the indexed columns `query` filters on, and `body`, the event's
// canonical JSON, which is what `query` returns and how a duplicate is told from a conflict.
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import { canonicalJson } from "../runtime/canonical-json.js";
import type { Issue } from "../runtime/issue.js";
import { checkEvent, issue, type AgentEvent } from "../store/event.js";
import {
  PERCENTILES,
  checkClaim,
  checkIdempotency,
  checkQuery,
  checkTokenId,
  checkedEvent,
  lookupOutcome,
  nearestRank,
  recordOutcome,
  type AggregateQuery,
  type AppendResult,
  type EventStore,
  type RecordResult,
  type RecordedResult,
} from "../store/event-store.js";
import { StoreError, type StoreErrorCode } from "../store/store-error.js";

/** The version of the file's tables, in `PRAGMA user_version`; a file with a higher one is refused. */
export const SQLITE_SCHEMA_VERSION = 2;

/** `PRAGMA application_id` of treaty's files ("trty"): another SQLite database is refused, not written into. */
const APPLICATION_ID = 0x74727479;

/** The claims that hold a mutation's key while its run executes (schema version 2). */
const CLAIMS_TABLE = `
CREATE TABLE idempotency_claims (
  agent TEXT NOT NULL,
  key TEXT NOT NULL,
  holder TEXT NOT NULL,
  until INTEGER NOT NULL,
  PRIMARY KEY (agent, key)
) STRICT, WITHOUT ROWID;
`;

const SCHEMA = `
CREATE TABLE events (
  id TEXT PRIMARY KEY NOT NULL,
  session TEXT NOT NULL,
  agent TEXT NOT NULL,
  type TEXT NOT NULL,
  at TEXT NOT NULL,
  duration_us INTEGER NOT NULL,
  body TEXT NOT NULL
) STRICT;
CREATE INDEX events_by_time ON events (at, id);
CREATE INDEX events_by_session ON events (session, at, id);
CREATE INDEX events_by_agent ON events (agent, at, id);
CREATE TABLE consumed_tokens (id TEXT PRIMARY KEY NOT NULL) STRICT, WITHOUT ROWID;
CREATE TABLE idempotency (
  agent TEXT NOT NULL,
  key TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  result TEXT NOT NULL,
  PRIMARY KEY (agent, key)
) STRICT, WITHOUT ROWID;
${CLAIMS_TABLE}
PRAGMA application_id = ${APPLICATION_ID};
PRAGMA user_version = ${SQLITE_SCHEMA_VERSION};
`;

/** What a file of schema version 1 gains to become version 2: the claims that hold a mutation's key while it executes. */
const TO_VERSION_2 = `
${CLAIMS_TABLE}
PRAGMA user_version = 2;
`;

/** The SQLite result codes (primary, before `_`) and what they mean to a caller. */
const SQLITE_CODES: { readonly [code: string]: StoreErrorCode } = {
  SQLITE_CANTOPEN: "CANNOT_OPEN",
  SQLITE_PERM: "CANNOT_OPEN",
  SQLITE_AUTH: "CANNOT_OPEN",
  SQLITE_NOTADB: "NOT_A_STORE",
  SQLITE_CORRUPT: "NOT_A_STORE",
  SQLITE_BUSY: "STORE_BUSY",
  SQLITE_LOCKED: "STORE_BUSY",
  SQLITE_FULL: "STORE_IO",
  SQLITE_IOERR: "STORE_IO",
  SQLITE_READONLY: "STORE_IO",
};

/** SQLite's words for a statement naming a table or column the file lacks: treaty's own SQL on a damaged treaty file. */
const MISSING_SCHEMA = /^no such (table|column):/;

/**
 * A better-sqlite3 error as a StoreError with a stable code, and so is the SyntaxError of parsing
 * an idempotency result the file holds (the only JSON.parse a call makes outside `readEvent`);
 * anything else (a bug) as it is.
 */
const translate = (error: unknown, path: string): unknown => {
  if (error instanceof StoreError || !(error instanceof Error)) return error;
  if (error instanceof SyntaxError) return new StoreError("NOT_A_STORE", `${path} is damaged: a stored result is not JSON`, [], { cause: error });
  const sqliteCode = (error as { code?: unknown }).code;
  const code =
    typeof sqliteCode !== "string" ? undefined
    : sqliteCode === "SQLITE_ERROR" && MISSING_SCHEMA.test(error.message) ? "NOT_A_STORE"
    : SQLITE_CODES[sqliteCode.split("_").slice(0, 2).join("_")];
  return code === undefined ? error : new StoreError(code, `${path}: ${error.message}`, [], { cause: error });
};

type Database = BetterSqlite3.Database;

const loadDriver = (): typeof BetterSqlite3 => {
  try {
    return createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  } catch (error) {
    throw new StoreError("SQLITE_UNAVAILABLE", "the SQLite store needs better-sqlite3: npm install better-sqlite3@12", [], { cause: error });
  }
};

/** Creates the tables in a new file, or checks that an existing one is a treaty store this version reads. */
const prepareFile = (db: Database, path: string): void => {
  db.transaction(() => {
    const id = db.pragma("application_id", { simple: true });
    const version = db.pragma("user_version", { simple: true }) as number;
    const tables = db.prepare("SELECT count(*) FROM sqlite_schema").pluck().get() as number;
    if (id === 0 && version === 0 && tables === 0) db.exec(SCHEMA);
    else if (id !== APPLICATION_ID) throw new StoreError("NOT_A_STORE", `${path} is a SQLite database, but not a treaty event store`);
    else if (version > SQLITE_SCHEMA_VERSION)
      throw new StoreError("SCHEMA_TOO_NEW", `${path} has schema version ${version}; this treaty reads up to ${SQLITE_SCHEMA_VERSION}`);
    else if (version === 1) db.exec(TO_VERSION_2);
  }).immediate();
};

/**
 * The statements every call runs, prepared once when the store opens: on a treaty file that lacks
 * a table or column of treaty's, preparing them fails, and the file is refused there.
 */
const prepareStatements = (db: Database) => ({
  insertEvent: db.prepare(
    "INSERT INTO events (id, session, agent, type, at, duration_us, body) VALUES (@id, @session, @agent, @type, @at, @durationUs, @body) ON CONFLICT (id) DO NOTHING",
  ),
  bodyOf: db.prepare<[string], string>("SELECT body FROM events WHERE id = ?").pluck(),
  insertToken: db.prepare<[string]>("INSERT INTO consumed_tokens (id) VALUES (?) ON CONFLICT (id) DO NOTHING"),
  recordedOf: db.prepare<[string, string], RecordedResult>("SELECT input_hash AS inputHash, result FROM idempotency WHERE agent = ? AND key = ?"),
  insertResult: db.prepare("INSERT INTO idempotency (agent, key, input_hash, result) VALUES (?, ?, ?, ?) ON CONFLICT (agent, key) DO NOTHING"),
  // A claim is taken when none stands for the key, its holder's own or one past its `until` aside.
  insertClaim: db.prepare(
    "INSERT INTO idempotency_claims (agent, key, holder, until) VALUES (@agent, @key, @holder, @until) ON CONFLICT (agent, key) DO UPDATE SET holder = @holder, until = @until WHERE holder = @holder OR until <= @now",
  ),
  deleteClaim: db.prepare("DELETE FROM idempotency_claims WHERE agent = ? AND key = ? AND holder = ?"),
});

/**
 * A row's body as the event it must be. A body that is not JSON, or not an event as `append`
 * checks one, was not written by a store: the file is damaged, and no caller is handed it as an
 * AgentEvent. The check builds no strings on a well-formed event.
 */
const readEvent = (body: string, path: string): AgentEvent => {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch (error) {
    throw new StoreError("NOT_A_STORE", `${path} is damaged: a stored event is not JSON`, [], { cause: error });
  }
  const issues = checkEvent(event);
  if (issues.length > 0) throw new StoreError("NOT_A_STORE", `${path} is damaged: a stored event is not an event`, issues);
  return event as AgentEvent;
};

const FILTERS = [
  ["session", "session = @session"],
  ["agent", "agent = @agent"],
  ["type", "type = @type"],
  ["from", "at >= @from"],
  ["to", "at < @to"],
] as const;

/** The WHERE clause of the filters `query` gives, and a key naming that combination. */
const where = (query: AggregateQuery): { readonly key: string; readonly sql: string } => {
  const used = FILTERS.filter(([name]) => query[name] !== undefined);
  return { key: used.map(([name]) => name).join(","), sql: used.length === 0 ? "" : `WHERE ${used.map(([, sql]) => sql).join(" AND ")}` };
};

/** The filter values as named parameters: only the ones the statement names (better-sqlite3 refuses others). */
const parameters = (query: AggregateQuery): Record<string, string> =>
  Object.fromEntries(FILTERS.flatMap(([name]) => (query[name] === undefined ? [] : [[name, query[name]]])));

/**
 * Why `path` names no file, or undefined. SQLite reads a path up to its first NUL (`a\0.sqlite`
 * would open `a`), and for "" and ":memory:" opens a temporary database that is kept nowhere.
 */
const pathIssue = (path: unknown): Issue | undefined => {
  if (typeof path !== "string" || path === "") return issue("", "type", "a file path");
  if (path.includes("\0")) return issue("", "pattern", "a file path without NUL characters");
  if (path === ":memory:") return issue("", "pattern", "a file path, not :memory: (./:memory: names a file)");
  return undefined;
};

/**
 * Opens (or creates) the store at `path`: a file, with `-wal` and `-shm` files beside it while
 * open. Several stores, in one process or many, may open the same file.
 */
export const openSqliteStore = (path: string): EventStore => {
  const malformed = pathIssue(path);
  if (malformed !== undefined) throw new StoreError("INVALID_ARGUMENT", "the SQLite store needs a file path", [malformed]);
  const Driver = loadDriver();
  let db: Database;
  try {
    db = new Driver(path);
  } catch (error) {
    // The driver checks the directory itself and throws a TypeError, not a SQLite error.
    const known = translate(error, path);
    throw known instanceof StoreError ? known : new StoreError("CANNOT_OPEN", `${path}: ${(error as Error).message}`, [], { cause: error });
  }
  let prepared: ReturnType<typeof prepareStatements>;
  try {
    db.pragma("journal_mode = WAL");
    prepareFile(db, path);
    prepared = prepareStatements(db);
  } catch (error) {
    db.close();
    throw translate(error, path);
  }
  const { insertEvent, bodyOf, insertToken, recordedOf, insertResult, insertClaim, deleteClaim } = prepared;

  // One prepared statement (of one column) per combination of filters, made the first time it is asked for.
  const statements = new Map<string, BetterSqlite3.Statement>();
  const statement = (key: string, sql: () => string): BetterSqlite3.Statement => {
    let found = statements.get(key);
    if (found === undefined) statements.set(key, (found = db.prepare(sql()).pluck()));
    return found;
  };

  const append = db.transaction((event: AgentEvent, body: string): AppendResult => {
    if (insertEvent.run({ id: event.id, session: event.session, agent: event.agent, type: event.type, at: event.at, durationUs: event.durationUs, body }).changes === 1)
      return { ok: true, duplicate: false };
    return bodyOf.get(event.id) === body ? { ok: true, duplicate: true } : { ok: false, code: "EVENT_CONFLICT", id: event.id };
  });

  // Deferred: a read snapshot, so the count and the ranks see the same events while others append.
  const aggregate = db.transaction((query: AggregateQuery) => {
    const filter = where(query);
    const values = parameters(query);
    const count = statement(`count:${filter.key}`, () => `SELECT count(*) FROM events ${filter.sql}`).get(values) as number;
    if (count === 0) return { count: 0 };
    const at = statement(`rank:${filter.key}`, () => `SELECT duration_us FROM events ${filter.sql} ORDER BY duration_us LIMIT 1 OFFSET @offset`);
    const [p50, p95, p99] = PERCENTILES.map((p) => at.get({ ...values, offset: nearestRank(p, count) - 1 }) as number) as [number, number, number];
    return { count, durationUs: { p50, p95, p99 } };
  });

  const recordResult = db.transaction((agent: string, key: string, record: RecordedResult): RecordResult =>
    recordOutcome(recordedOf.get(agent, key), record, () => insertResult.run(agent, key, record.inputHash, record.result)),
  );

  /** Runs `work` on the open file, with SQLite's errors as StoreErrors. */
  const guard = <T>(work: () => T): T => {
    if (!db.open) throw new StoreError("STORE_CLOSED", `the store at ${path} was closed`);
    try {
      return work();
    } catch (error) {
      throw translate(error, path);
    }
  };

  return {
    append: (event) => guard(() => append.immediate(event, canonicalJson(checkedEvent(event)))),

    query: (query) =>
      guard(() => {
        const { limit, ...filters } = checkQuery(query, true);
        const filter = where(filters);
        const limited = limit === undefined ? "" : " LIMIT @limit";
        const select = statement(`query:${filter.key}${limited}`, () => `SELECT body FROM events ${filter.sql} ORDER BY at, id${limited}`);
        const rows = select.all({ ...parameters(filters), ...(limit !== undefined && { limit }) }) as string[];
        return rows.map((body) => readEvent(body, path));
      }),

    aggregate: (query) => guard(() => aggregate.deferred(checkQuery(query, false))),

    consume: (tokenId) =>
      guard(() => {
        checkTokenId(tokenId);
        // One statement: SQLite's write lock makes it atomic across every connection to the file.
        return insertToken.run(tokenId).changes === 1 ? { ok: true } : { ok: false, code: "TOKEN_CONSUMED" };
      }),

    lookup: (ref) =>
      guard(() => {
        checkIdempotency(ref);
        return lookupOutcome(recordedOf.get(ref.agent, ref.key), ref.inputHash);
      }),

    recordResult: (ref, result) =>
      guard(() => {
        checkIdempotency(ref, { value: result });
        return recordResult.immediate(ref.agent, ref.key, { inputHash: ref.inputHash, result: canonicalJson(result) });
      }),

    claim: (ref, holder, now, until) =>
      guard(() => {
        checkIdempotency(ref);
        checkClaim(holder, now, until);
        // One statement: SQLite's write lock makes it atomic across every connection to the file.
        const taken = insertClaim.run({ agent: ref.agent, key: ref.key, holder, until, now }).changes === 1;
        return taken ? { ok: true } : { ok: false, code: "IDEMPOTENCY_IN_PROGRESS" };
      }),

    release: (ref, holder) =>
      guard(() => {
        checkIdempotency(ref);
        checkClaim(holder);
        deleteClaim.run(ref.agent, ref.key, holder);
      }),

    close: () => {
      if (db.open) db.close();
    },
  };
};
