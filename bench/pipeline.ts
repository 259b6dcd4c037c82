// The agent pipeline's gate overhead: `session.run` of availability_search (intent lock, schema,
// its custom rule, consistency, confidence, an event appended to the in-memory store) against
// calling its `execute` directly, measured against `check` of its input and output together
// (DESIGN.md's target: the overhead under 2× that). Contenders interleaved round by round.
import { agents } from "../generated/agents/index.js";
import { createPipeline } from "../src/runtime/index.js";
import { createMemoryStore } from "../src/store/index.js";

const ROUNDS = 7;
const RUNS = 2000;
const agent = agents["booking.availability_search"];
const intent = { contract: "booking.intent", version: "1.0", intent_type: "BOOK", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY" };
const input = { contract: "booking.search", version: "1.0", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY", passengers: 1 } as const;

const nsPerOp = async (work: () => unknown): Promise<number> => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) await work();
  return Number(process.hrtime.bigint() - start) / RUNS;
};

const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1]!;

export interface PipelineRow {
  readonly execute: number;
  readonly run: number;
  readonly checks: number;
}

export const benchPipeline = async (): Promise<PipelineRow> => {
  const output = await agent.execute(input);
  const samples = { execute: [] as number[], run: [] as number[], checks: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // A fresh store and session per round: the store's growth is not what is measured.
    const session = createPipeline({ agents: { search: agent }, intent, store: createMemoryStore() });
    const first = await session.run("search", input);
    if (!first.ok) throw new Error(`the bench search is refused: ${first.error.code}`);
    samples.execute.push(await nsPerOp(() => agent.execute(input)));
    samples.run.push(await nsPerOp(() => session.run("search", input)));
    samples.checks.push(await nsPerOp(() => agent.input.check(input) && agent.output.check(output)));
  }
  return { execute: median(samples.execute), run: median(samples.run), checks: median(samples.checks) };
};

export const printPipeline = (row: PipelineRow): void => {
  const overhead = row.run - row.execute;
  console.log(`\nagent pipeline, booking.availability_search, ${ROUNDS} interleaved rounds of ${RUNS} awaited calls; medians`);
  console.log(`execute directly ${row.execute.toFixed(0)} ns/op, session.run ${row.run.toFixed(0)} ns/op, check of input and output ${row.checks.toFixed(0)} ns/op`);
  console.log(`gate overhead ${overhead.toFixed(0)} ns/op = ${(overhead / row.checks).toFixed(1)}× check of input and output (target: under 2×)`);
};
