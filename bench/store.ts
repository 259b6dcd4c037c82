// Event store throughput: appends and queries per second of the in-memory and the SQLite store
// (WAL, synchronous FULL: one fsync per append), contenders interleaved round by round.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalHash } from "../src/runtime/index.js";
import { createMemoryStore, type AgentEvent, type EventStore } from "../src/store/index.js";
import { openSqliteStore } from "../src/store-sqlite/index.js";

const ROUNDS = 5;
const APPENDS = 500;
const QUERIES = 200;
const inputHash = canonicalHash({ origin: "CDG", destination: "JFK" });

const event = (n: number): AgentEvent => ({
  id: `EV-${n}`,
  session: `S-${n % 50}`,
  agent: "booking.availability_search",
  type: "agent.run",
  at: new Date(Date.UTC(2026, 0, 31) + n).toISOString(),
  durationUs: 900 + (n % 400),
  gates: [{ gate: "schema_in", outcome: "pass", codes: [] }],
  confidence: 0.93,
  inputHash,
  outcome: "ok",
  payload: { offers: [{ offer_id: `OF-${n}`, price: "412.50" }] },
});

const opsPerSecond = (count: number, work: (i: number) => unknown): number => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) work(i);
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
};

const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1]!;

export interface StoreRow {
  readonly name: string;
  readonly append: number;
  readonly query: number;
}

export const benchStore = (): StoreRow[] => {
  const dir = mkdtempSync(join(tmpdir(), "treaty-bench-store-"));
  try {
    const contenders: [string, EventStore][] = [
      ["memory", createMemoryStore()],
      ["sqlite", openSqliteStore(join(dir, "events.sqlite"))],
    ];
    const samples = contenders.map(() => ({ append: [] as number[], query: [] as number[] }));
    let next = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const first = next;
      next += APPENDS;
      contenders.forEach(([, store], c) => {
        samples[c]!.append.push(opsPerSecond(APPENDS, (i) => store.append(event(first + i))));
        samples[c]!.query.push(opsPerSecond(QUERIES, (i) => store.query({ session: `S-${i % 50}`, limit: 20 })));
      });
    }
    contenders.forEach(([, store]) => store.close());
    return contenders.map(([name], c) => ({ name, append: median(samples[c]!.append), query: median(samples[c]!.query) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export const printStore = (rows: readonly StoreRow[]): void => {
  console.log(`\nevent store, ${ROUNDS} interleaved rounds of ${APPENDS} appends then ${QUERIES} queries (a session, limit 20); medians`);
  console.log(`${"".padEnd(12)}${"appends/s".padStart(14)}${"queries/s".padStart(14)}`);
  for (const row of rows) console.log(`${row.name.padEnd(12)}${Math.round(row.append).toLocaleString("en-US").padStart(14)}${Math.round(row.query).toLocaleString("en-US").padStart(14)}`);
};
