// A process killed (SIGKILL) while appending leaves every event whole or absent: the store opens
// cleanly, holds a prefix of what the child appended (at least what it reported committed), and
// the next child's appends of the same events are duplicates, not conflicts.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { checkEvent } from "../../src/store/index.js";
import { openSqliteStore } from "../../src/store-sqlite/index.js";
import { bulkyEvent } from "../support/agent-events.js";
import { scratchDir } from "../support/stores.js";

const scratch = scratchDir();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LOOP = join(import.meta.dirname, "append-loop.ts");

/** Runs the append loop on `path` until it reports `target` committed events, then SIGKILLs it; resolves to the last count it reported. */
const appendUntilKilled = (path: string, target: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", LOOP, path], { stdio: ["ignore", "pipe", "pipe"] });
    let reported = 0;
    let pending = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop()!;
      if (lines.length > 0) reported = Number(lines.at(-1));
      if (reported >= target) child.kill("SIGKILL");
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code, signal) => (signal === "SIGKILL" ? resolve(reported) : reject(new Error(`the append loop exited with ${code}: ${stderr}`))));
  });

describe("the SQLite store under SIGKILL", () => {
  it("keeps every event whole or absent, round after round", async () => {
    const path = join(scratch, "killed.sqlite");
    let stored = 0;
    for (let round = 0; round < 3; round++) {
      const reported = await appendUntilKilled(path, stored + 40);

      const store = openSqliteStore(path);
      const events = store.query();
      store.close();
      expect(events.length).toBeGreaterThanOrEqual(reported);
      events.forEach((event, n) => {
        expect(checkEvent(event)).toEqual([]);
        expect(event).toEqual(bulkyEvent(n));
      });
      const raw = new Database(path, { readonly: true });
      expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(raw.prepare("SELECT count(*) FROM events").pluck().get()).toBe(events.length);
      raw.close();
      stored = events.length;
    }
  });
});
