// The agent pipeline's gate overhead: `session.run` of availability_search (intent lock, schema,
// its custom rule, consistency, confidence, an event appended to the in-memory store) against
// calling its `execute` directly, measured against `check` of its input and output together
// (DESIGN.md's target: the overhead under 2× that). Each round measures the contenders back to
// back and takes its own ratio, so machine load shifts both sides alike; the row is the median
// ratio. The same rounds time the parts of the event every run appends, apart, against the same
// `check`: what the overhead cannot go below while each run is recorded.
import { agents } from "../generated/agents/index.js";
import { canonicalHash, createPipeline, redact } from "../src/runtime/index.js";
import { createMemoryStore, type AgentEvent } from "../src/store/index.js";

const ROUNDS = 9;
const RUNS = 2000;
const TARGET = 2;
const agent = agents["booking.availability_search"];
const intent = { contract: "booking.intent", version: "1.0", intent_type: "BOOK", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY" };
const input = { contract: "booking.search", version: "1.0", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY", passengers: 1 } as const;

const nsPerOp = async (work: (i: number) => unknown): Promise<number> => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) await work(i);
  return Number(process.hrtime.bigint() - start) / RUNS;
};

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** ns/op medians, and the ratios (to `check` of input and output) as medians of each round's own. */
export interface PipelineRow {
  readonly execute: number;
  readonly run: number;
  readonly checks: number;
  readonly overheadRatio: number;
  readonly parts: { readonly [part in "hash" | "redact" | "append"]: { readonly ns: number; readonly ratio: number } };
}

const PART_NAMES = { hash: "input hash (canonicalHash)", redact: "redaction of input and output", append: "store.append of the event" } as const;

export const benchPipeline = async (): Promise<PipelineRow> => {
  const output = await agent.execute(input);
  const redaction = { internal: false };
  const ns = { execute: [] as number[], run: [] as number[], checks: [] as number[], hash: [] as number[], redact: [] as number[], append: [] as number[] };
  const ratios = { overhead: [] as number[], hash: [] as number[], redact: [] as number[], append: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // A fresh store and session per round: the store's growth is not what is measured.
    const store = createMemoryStore();
    const session = createPipeline({ agents: { search: agent }, intent, store });
    const first = await session.run("search", input);
    if (!first.ok) throw new Error(`the bench search is refused: ${first.error.code}`);
    const [event] = store.query({ limit: 1 }) as [AgentEvent];
    const execute = await nsPerOp(() => agent.execute(input));
    const run = await nsPerOp(() => session.run("search", input));
    const checks = await nsPerOp(() => agent.input.check(input) && agent.output.check(output));
    const hash = await nsPerOp(() => canonicalHash(input));
    const redacted = await nsPerOp(() => [redact(input, agent.input.shape, redaction), redact(output, agent.output.shape, redaction)]);
    const parts = createMemoryStore();
    const append = await nsPerOp((i) => parts.append({ ...event, id: `EV-${round}-${i}` }));
    Object.entries({ execute, run, checks, hash, redact: redacted, append }).forEach(([k, v]) => ns[k as keyof typeof ns].push(v));
    ratios.overhead.push((run - execute) / checks);
    ratios.hash.push(hash / checks);
    ratios.redact.push(redacted / checks);
    ratios.append.push(append / checks);
  }
  const part = (name: "hash" | "redact" | "append") => ({ ns: median(ns[name]), ratio: median(ratios[name]) });
  return {
    execute: median(ns.execute),
    run: median(ns.run),
    checks: median(ns.checks),
    overheadRatio: median(ratios.overhead),
    parts: { hash: part("hash"), redact: part("redact"), append: part("append") },
  };
};

export const printPipeline = (row: PipelineRow): void => {
  console.log(`\nagent pipeline, booking.availability_search, ${ROUNDS} rounds of ${RUNS} awaited calls; medians, ratios taken within each round`);
  console.log(`execute directly ${row.execute.toFixed(0)} ns/op, session.run ${row.run.toFixed(0)} ns/op, check of input and output ${row.checks.toFixed(0)} ns/op`);
  const verdict = row.overheadRatio < TARGET ? "met" : `missed by ${(row.overheadRatio / TARGET).toFixed(1)}×`;
  console.log(`gate overhead ${(row.run - row.execute).toFixed(0)} ns/op = ${row.overheadRatio.toFixed(1)}× check of input and output (target: under ${TARGET}×, ${verdict})`);
  for (const [name, { ns, ratio }] of Object.entries(row.parts)) {
    console.log(`  of which every run's event needs ${PART_NAMES[name as keyof typeof PART_NAMES]}: ${ns.toFixed(0)} ns/op = ${ratio.toFixed(1)}× check`);
  }
};
