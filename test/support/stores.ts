// The two event stores, opened the same way for tests that run against both: the SQLite one on a
// fresh file in a scratch directory that `cleanup` removes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore, type EventStore } from "../../src/store/index.js";
import { openSqliteStore } from "../../src/store-sqlite/index.js";

export interface StoreKind {
  readonly name: string;
  readonly open: () => EventStore;
  readonly cleanup: () => void;
}

export const scratchDir = (): string => mkdtempSync(join(tmpdir(), "treaty-store-"));

const sqliteKind = (): StoreKind => {
  const dirs: string[] = [];
  let n = 0;
  return {
    name: "sqlite",
    open: () => {
      if (dirs.length === 0) dirs.push(scratchDir());
      return openSqliteStore(join(dirs[0]!, `events-${n++}.sqlite`));
    },
    cleanup: () => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })),
  };
};

export const STORE_KINDS: readonly StoreKind[] = [{ name: "memory", open: createMemoryStore, cleanup: () => {} }, sqliteKind()];
