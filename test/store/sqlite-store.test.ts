// What only the SQLite store has: a file that outlives the store object, shared by connections,
// checked when opened.
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { StoreError, type EventStore, type StoreErrorCode } from "../../src/store/index.js";
import { SQLITE_SCHEMA_VERSION, openSqliteStore } from "../../src/store-sqlite/index.js";
import { HASH, agentEvent } from "../support/agent-events.js";
import { scratchDir } from "../support/stores.js";

const scratch = scratchDir();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(scratch, `store-${files++}.sqlite`);

const openError = (path: string): StoreErrorCode | undefined => {
  try {
    openSqliteStore(path).close();
  } catch (error) {
    if (error instanceof StoreError) return error.code;
    throw error;
  }
  return undefined;
};

const ref = { agent: "booking.ticket_issuance", key: "IDEM-1", inputHash: HASH };

describe("the SQLite event store", () => {
  it("adds the claims table to a file of schema version 1, keeping what it holds", () => {
    const path = freshPath();
    const first = openSqliteStore(path);
    first.append(agentEvent(1));
    first.recordResult(ref, { ticket: "TK-1" });
    first.close();
    // The file as treaty's schema version 1 left it.
    const raw = new Database(path);
    raw.exec("DROP TABLE idempotency_claims; PRAGMA user_version = 1;");
    raw.close();
    const again = openSqliteStore(path);
    expect(again.query().map((e) => e.id)).toEqual([agentEvent(1).id]);
    expect(again.lookup(ref)).toEqual({ ok: true, found: true, result: { ticket: "TK-1" } });
    expect(again.claim!(ref, "RUN-a", 1, 2)).toEqual({ ok: true });
    again.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(2);
    check.close();
  });

  it("holds a claim across connections to one file", () => {
    const path = freshPath();
    const [a, b] = [openSqliteStore(path), openSqliteStore(path)];
    expect(a.claim!(ref, "RUN-a", 1, 1000)).toEqual({ ok: true });
    expect(b.claim!(ref, "RUN-b", 2, 1000)).toEqual({ ok: false, code: "IDEMPOTENCY_IN_PROGRESS" });
    a.release!(ref, "RUN-a");
    expect(b.claim!(ref, "RUN-b", 3, 1000)).toEqual({ ok: true });
    a.close();
    b.close();
  });

  it("creates its tables in WAL mode with a schema version, and keeps everything across a reopen", () => {
    const path = freshPath();
    const first = openSqliteStore(path);
    first.append(agentEvent(1));
    first.append(agentEvent(2, { outcome: "CONFLICT", code: "IDEMPOTENCY_CONFLICT" }));
    first.consume("APR-1");
    first.recordResult(ref, { ticket: "TK-1" });
    first.close();

    const raw = new Database(path, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    raw.close();

    const again = openSqliteStore(path);
    expect(again.query()).toEqual([agentEvent(1), agentEvent(2, { outcome: "CONFLICT", code: "IDEMPOTENCY_CONFLICT" })]);
    expect(again.aggregate()).toEqual({ count: 2, durationUs: { p50: 1001, p95: 1002, p99: 1002 } });
    expect(again.consume("APR-1")).toEqual({ ok: false, code: "TOKEN_CONSUMED" });
    expect(again.lookup(ref)).toEqual({ ok: true, found: true, result: { ticket: "TK-1" } });
    again.close();
  });

  it("consumes a token once across two stores open on the same file", () => {
    const path = freshPath();
    const a = openSqliteStore(path);
    const b = openSqliteStore(path);
    expect(a.consume("APR-7")).toEqual({ ok: true });
    expect(b.consume("APR-7")).toEqual({ ok: false, code: "TOKEN_CONSUMED" });
    expect(b.consume("APR-8")).toEqual({ ok: true });
    expect(a.consume("APR-8")).toEqual({ ok: false, code: "TOKEN_CONSUMED" });
    a.close();
    b.close();
  });

  it("sees what another connection appended, and keeps ids unique across them", () => {
    const path = freshPath();
    const a = openSqliteStore(path);
    const b = openSqliteStore(path);
    a.append(agentEvent(1));
    expect(b.append(agentEvent(1, { durationUs: 9 }))).toEqual({ ok: false, code: "EVENT_CONFLICT", id: "EV-0001" });
    b.recordResult(ref, { ticket: "TK-1" });
    expect(a.recordResult(ref, { ticket: "TK-2" })).toEqual({ ok: true, recorded: false, result: { ticket: "TK-1" } });
    expect(b.query()).toEqual([agentEvent(1)]);
    a.close();
    b.close();
  });

  describe("refuses a file it cannot use, with a stable code", () => {
    it("a path in a directory that does not exist", () => {
      expect(openError(join(scratch, "missing", "events.sqlite"))).toBe("CANNOT_OPEN");
    });

    it("a directory", () => {
      expect(openError(scratch)).toBe("CANNOT_OPEN");
    });

    it("an empty path", () => {
      expect(openError("")).toBe("INVALID_ARGUMENT");
    });

    it("a path with a NUL character, creating nothing (SQLite would open the path before it)", () => {
      const path = freshPath();
      expect(openError(`${path}\0.sqlite`)).toBe("INVALID_ARGUMENT");
      expect(existsSync(path)).toBe(false);
    });

    it(":memory:, which SQLite keeps in memory, not in a file", () => {
      expect(openError(":memory:")).toBe("INVALID_ARGUMENT");
    });

    it("a file that is not SQLite", () => {
      const path = freshPath();
      writeFileSync(path, "This is a text file, not a database. ".repeat(40));
      expect(openError(path)).toBe("NOT_A_STORE");
    });

    it("another application's SQLite database, left untouched", () => {
      const path = freshPath();
      const other = new Database(path);
      other.exec("CREATE TABLE notes (text TEXT)");
      other.close();
      expect(openError(path)).toBe("NOT_A_STORE");
      const after = new Database(path, { readonly: true });
      expect(after.prepare("SELECT name FROM sqlite_schema").pluck().all()).toEqual(["notes"]);
      after.close();
    });

    it("a store written by a newer schema", () => {
      const path = freshPath();
      openSqliteStore(path).close();
      const raw = new Database(path);
      raw.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
      raw.close();
      expect(openError(path)).toBe("SCHEMA_TOO_NEW");
    });
  });

  describe("refuses a damaged store as NOT_A_STORE, not with a parser's or SQLite's error", () => {
    /** A store holding two events and a result, then changed by `sql` as another program could. */
    const damaged = (sql: string): string => {
      const path = freshPath();
      const store = openSqliteStore(path);
      store.append(agentEvent(1));
      store.append(agentEvent(2));
      store.recordResult(ref, { ticket: "TK-1" });
      store.close();
      const raw = new Database(path);
      raw.exec(sql);
      raw.close();
      return path;
    };
    const codeOf = (path: string, work: (store: EventStore) => unknown): StoreErrorCode | undefined => {
      const store = openSqliteStore(path);
      try {
        work(store);
      } catch (error) {
        if (error instanceof StoreError) return error.code;
        throw error;
      } finally {
        store.close();
      }
      return undefined;
    };

    it("an event's body that is not JSON", () => {
      expect(codeOf(damaged("UPDATE events SET body = '{not json' WHERE id = 'EV-0001'"), (store) => store.query())).toBe("NOT_A_STORE");
    });

    it("an event's body that is JSON but no event", () => {
      const path = damaged(`UPDATE events SET body = '{"x":1}' WHERE id = 'EV-0001'`);
      expect(codeOf(path, (store) => store.query())).toBe("NOT_A_STORE");
      expect(codeOf(path, (store) => store.query({ session: "S-2" }))).toBeUndefined();
    });

    it("a table missing when the store opens", () => {
      expect(openError(damaged("DROP TABLE events"))).toBe("NOT_A_STORE");
      expect(openError(damaged("DROP TABLE idempotency"))).toBe("NOT_A_STORE");
    });

    it("a table dropped while the store is open", () => {
      const path = damaged("");
      const store = openSqliteStore(path);
      const raw = new Database(path);
      raw.exec("DROP TABLE events");
      raw.close();
      const errorOf = (work: () => unknown): StoreErrorCode | undefined => {
        try {
          work();
        } catch (error) {
          if (error instanceof StoreError) return error.code;
          throw error;
        }
        return undefined;
      };
      expect(errorOf(() => store.query())).toBe("NOT_A_STORE");
      expect(errorOf(() => store.append(agentEvent(3)))).toBe("NOT_A_STORE");
      store.close();
    });

    it("an idempotency result that is not JSON", () => {
      expect(codeOf(damaged("UPDATE idempotency SET result = '{not json'"), (store) => store.lookup(ref))).toBe("NOT_A_STORE");
    });
  });
});
