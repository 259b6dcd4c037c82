// `npm run bench`: throughput of treaty's generated validator on the seed's task.result 1.2 payload,
// against a hand-written validator and peers (Ajv, TypeBox's compiler, Zod 4, typia), all in this
// process, contenders interleaved round by round and each ratio taken within its round (DESIGN.md §9),
// plus `errors` and `decode` on hostile payloads against `check` on the largest valid one,
// plus the runtime's whole `decode` (parse to canonical model, no hooks or sinks) against `check` alone
// and `decode(..., { from: "openai" })` against plain decode,
// plus the wall time and peak memory of `treaty generate` on 100 and 1,000 synthetic contracts (bench/codegen.ts),
// plus appends and queries per second of the two event stores (bench/store.ts),
// plus the agent pipeline's gate overhead over calling execute directly (bench/pipeline.ts).
// A benchmark, not a test: it prints, never fails.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { Compile } from "typebox/compile";
import { z } from "zod";
import { parse } from "yaml";
import { createRuntime } from "treaty/runtime";
import { registry } from "../generated/index.js";
import { check, errors } from "../generated/task.result/v1_2/validator.js";
import { check as checkV2_0, read as readV2_0 } from "../generated/task.result/v2_0/validator.js";
import { TaskResultV1_2Schema } from "../generated/task.result/v1_2/schema.js";
import { check as checkAgentTask, errors as errorsAgentTask } from "../generated/agent.task/v3_0/validator.js";
import { benchCodegen, printCodegen } from "./codegen.js";
import { benchCompileSize, printCompileSize, printVersionCounts } from "./compile-size.js";
import { handWrittenCheck } from "./hand-written.js";
import { benchPipeline, printPipeline } from "./pipeline.js";
import { benchStore, printStore } from "./store.js";
import { loadTypia } from "./typia.js";

const ROOT = join(import.meta.dirname, "..");
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The first valid example of `version` in a contract file of idl/. */
const example = (file: string, version: string): Record<string, unknown> => {
  const contract = parse(readFileSync(join(ROOT, "idl", file), "utf8")) as { examples: { version: string; valid?: Record<string, unknown> }[] };
  return contract.examples.find((e) => e.version === version && e.valid)!.valid!;
};
/**
 * `value` as a provider's reply reaches decode: parsed from JSON text. Objects parsed alike (the
 * same keys in the same order) share their hidden classes, as payloads of one contract do in a
 * service; a copy made by `structuredClone` or a spread would give each payload classes of its
 * own, which no reply has, and make every validator's property reads polymorphic.
 */
const parsed = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const valid = parsed(example("task/task.result.yaml", "1.2"));
const invalid = parsed(valid) as unknown as { result: { claims: { claim_id: string }[] } };
invalid.result.claims[0]!.claim_id = "claim-1"; // one nested error

const emittedSchema = JSON.parse(readFileSync(join(ROOT, "generated/task.result/v1_2/schema.json"), "utf8"));
// Ajv as it is best used for each job: stop at the first error for a boolean, collect all for errors.
const ajvFirst = new Ajv2020({ strict: false });
addFormats(ajvFirst);
const ajvCheck = ajvFirst.compile(emittedSchema);
const ajvAll = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajvAll);
const ajvErrors = ajvAll.compile(emittedSchema);
const typeboxCheck = Compile(TaskResultV1_2Schema);

const refs = (scheme: string) => z.string().regex(new RegExp(`^${scheme}://.+`, "u"));
const zodSchema = z.strictObject({
  contract: z.literal("task.result"),
  version: z.literal("1.2"),
  task_id: z.string().max(64).regex(/^TASK-[0-9]+$/u),
  status: z.enum(["SUCCESS", "PARTIAL", "FAILED"]),
  result: z.strictObject({
    artifact_ref: refs("artifact"),
    summary: z.string().max(2000),
    claims: z
      .array(z.strictObject({ claim_id: z.string().max(32).regex(/^c[0-9]+$/u), text: z.string().min(1).max(4000), evidence_refs: z.array(refs("src")).min(1).max(100) }))
      .max(500),
  }),
  quality: z.strictObject({ verification: z.enum(["PASS", "FAIL", "SKIPPED"]), unresolved_items: z.array(z.string().min(1).max(1000)).max(100) }).optional(),
  usage: z.strictObject({ model_calls: z.int().min(0), tool_calls: z.int().min(0) }).optional(),
});

let sink = 0;

/**
 * Ops/s of each contender per round: every round runs each once, for `budgetMs`, in an order
 * rotated round by round, so a burst of load on this shared machine hits a round's contenders
 * alike and a ratio taken within the round cancels it.
 */
const race = (contenders: ReadonlyMap<string, () => unknown>, rounds: number, budgetMs: number): Map<string, number[]> => {
  const names = [...contenders.keys()];
  const perRound = new Map(names.map((name) => [name, [] as number[]]));
  const budget = BigInt(budgetMs * 1e6);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round) % names.length]!;
      const fn = contenders.get(name)!;
      let iterations = 0;
      let batch = 1;
      const start = process.hrtime.bigint();
      let now = start;
      while (now - start < budget) {
        for (let i = 0; i < batch; i++) if (fn()) sink++;
        iterations += batch;
        if (batch < 1024) batch *= 2;
        now = process.hrtime.bigint();
      }
      perRound.get(name)!.push(iterations / (Number(now - start) / 1e9));
    }
  }
  return perRound;
};

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A printed row: `name` against `base` (another contender of the same race), or alone. */
type Row = readonly [name: string, base?: string];

/** Median ops/s, and the median and spread (min–max over rounds) of base ops/s ÷ ops/s within each round. */
const table = (title: string, results: ReadonlyMap<string, number[]>, rows: readonly Row[]): void => {
  const rounds = [...results.values()][0]!.length;
  console.log(`\n${title}`);
  console.log(`${"".padEnd(46)}${"ops/s".padStart(13)}${"ns/op".padStart(11)}${"ratio".padStart(11)}  spread over ${rounds} rounds  (vs)`);
  for (const [name, base] of rows) {
    const ops = results.get(name)!;
    const ns = 1e9 / median(ops);
    const head = `${name.padEnd(46)}${Math.round(median(ops)).toLocaleString("en-US").padStart(13)}${(ns < 1e4 ? ns.toFixed(0) : ns.toExponential(2)).padStart(11)}`;
    if (base === undefined || base === name) {
      console.log(`${head}${"1.00×".padStart(11)}`);
      continue;
    }
    const against = results.get(base)!;
    const ratios = ops.map((o, i) => against[i]! / o).sort((a, b) => a - b);
    const spread = `${ratios[0]!.toFixed(2)}–${ratios[ratios.length - 1]!.toFixed(2)}`;
    console.log(`${head}${`${median(ratios).toFixed(2)}×`.padStart(11)}  ${spread.padEnd(22)}${base}`);
  }
};

const typia = await loadTypia();

// Sanity: every contender must agree on both payloads before its speed means anything.
const contenders: [string, (v: unknown) => boolean][] = [
  ["hand-written", handWrittenCheck],
  ["treaty check", check],
  ["Ajv", (v) => ajvCheck(v) as boolean],
  ["TypeBox Compile", (v) => typeboxCheck.Check(v)],
  ["Zod 4 safeParse", (v) => zodSchema.safeParse(v).success],
  ...(typeof typia === "string" ? [] : [["typia equals", typia] as [string, (v: unknown) => boolean]]),
];
for (const [name, fn] of contenders) {
  if (!fn(valid) || fn(invalid)) throw new Error(`${name} disagrees on the bench payloads`);
}
if (errors(invalid).length !== 1) throw new Error("treaty errors should report exactly one issue");
const runtime = createRuntime(registry);
const decode = (v: unknown): boolean => runtime.decode("task.result", v).ok;
if (!decode(valid) || decode(invalid)) throw new Error("runtime decode disagrees on the bench payloads");
const decodedValid = runtime.decode("task.result", valid);
if (!decodedValid.ok) throw new Error("the bench payload does not decode");
const encoded = registry.encode("task.result", decodedValid.value, "2.0");
const canonicalValid = encoded.ok ? { ...encoded, value: parsed(encoded.value) } : encoded;
if (!canonicalValid.ok) throw new Error("the bench payload does not encode as 2.0");

// Decoding an OpenAI reply: `from: "openai"` runs 1.2's null → absent mapping before validating.
// The seed payload has both optional fields, so OpenAI writes it as it is; with `quality` absent,
// OpenAI sends `quality: null`, which the mapping leaves out of a copy of the top level.
const fromOpenAI = (v: unknown): boolean => runtime.decode("task.result", v, { from: "openai" }).ok;
const withoutQuality = parsed({ ...valid, quality: undefined }); // JSON leaves it out
const qualityNull = parsed({ ...valid, quality: null });
if (!fromOpenAI(valid) || !decode(withoutQuality) || !fromOpenAI(qualityNull) || decode(qualityNull)) {
  throw new Error("decode from openai disagrees on the bench payloads");
}

// decode's `read` of 1.2 meets every 1.2 payload above (with quality, without, the OpenAI reply
// mapped back): `check` is shown them too, so both judge the seed payload with the same knowledge
// of the shapes a process reading varied payloads holds, rather than `check` alone seeing one.
for (let i = 0; i < 10_000; i++) sink += check(withoutQuality) ? 1 : 0;
const ROUNDS = 15;
const seed = race(
  new Map<string, () => unknown>([
    ["hand-written check (valid)", () => handWrittenCheck(valid)],
    ["treaty check (valid)", () => check(valid)],
    ["runtime decode 1.2 → 2.0 (valid)", () => decode(valid)],
    ["treaty check 2.0 (valid)", () => checkV2_0(canonicalValid.value)],
    ["treaty read 2.0 (check + snapshot copy)", () => readV2_0(canonicalValid.value)],
    ["runtime decode 2.0 (valid, no adapter)", () => runtime.decode("task.result", canonicalValid.value).ok],
    ["decode { from: openai } (valid)", () => fromOpenAI(valid)],
    ["decode (quality absent)", () => decode(withoutQuality)],
    ["decode { from: openai } (quality: null)", () => fromOpenAI(qualityNull)],
    ["hand-written check (1 nested error)", () => handWrittenCheck(invalid)],
    ["treaty errors (1 nested error)", () => errors(invalid).length],
    ["runtime decode (1 nested error)", () => decode(invalid)],
    ["Ajv (valid)", () => ajvCheck(valid)],
    ["Ajv allErrors (1 nested error)", () => !ajvErrors(invalid) && ajvErrors.errors!.length],
    ["TypeBox Compile Check (valid)", () => typeboxCheck.Check(valid)],
    ["Zod 4 safeParse (valid)", () => zodSchema.safeParse(valid).success],
    ...(typeof typia === "string" ? [] : [["typia equals (valid)", () => typia(valid)] as [string, () => unknown]]),
  ]),
  ROUNDS,
  40,
);
const hand = "hand-written check (valid)";
const handInvalid = "hand-written check (1 nested error)";
console.log(`task.result 1.2, seed payload; ratio = baseline ops/s ÷ ops/s in the same round, median (lower is better)`);
const seedRows: Row[] = [
  [hand],
  ["treaty check (valid)", hand],
  ["typia equals (valid)", hand],
  ["TypeBox Compile Check (valid)", hand],
  ["Ajv (valid)", hand],
  ["Zod 4 safeParse (valid)", hand],
  ["runtime decode 1.2 → 2.0 (valid)", hand],
];
table("validators against the hand-written check", seed, seedRows.filter(([name]) => seed.has(name)));
if (typeof typia === "string") console.log(`typia equals: not run (${typia})`);
table("failing payloads against the hand-written check of the same payload (targets: errors 2×, decode 10×)", seed, [
  [handInvalid],
  ["treaty errors (1 nested error)", handInvalid],
  ["runtime decode (1 nested error)", handInvalid],
  ["Ajv allErrors (1 nested error)", handInvalid],
]);
table("runtime decode against treaty check of the same payload (target: 1.5×)", seed, [
  ["runtime decode 1.2 → 2.0 (valid)", "treaty check (valid)"],
  ["runtime decode 2.0 (valid, no adapter)", "treaty check 2.0 (valid)"],
  // What of that is the copy decode hands over (issue 14: one snapshot, own data properties), and what the rest.
  ["treaty read 2.0 (check + snapshot copy)", "treaty check 2.0 (valid)"],
  ["runtime decode 2.0 (valid, no adapter)", "treaty read 2.0 (check + snapshot copy)"],
  ["decode { from: openai } (valid)", "runtime decode 1.2 → 2.0 (valid)"],
  ["decode { from: openai } (quality: null)", "decode (quality absent)"],
]);

// Hostile payloads (issue 14): what `errors` and `decode` cost on payloads far past the contract's
// bounds, against `check` on the largest payload agent.task 3.0 allows (its refs, which have no
// length bound, 100 characters long).
const agentTask = example("agents/agent.task.yaml", "3.0");
const largest = {
  ...agentTask,
  goal: "g".repeat(2000),
  inputs: {
    artifact_refs: Array.from({ length: 50 }, (_, i) => `artifact://${"a".repeat(90)}/${i}`),
    evidence_refs: Array.from({ length: 200 }, (_, i) => `src://${"s".repeat(90)}/${i}`),
  },
};
const manyDistinct = { ...agentTask, constraints: Array.from({ length: 10_000 }, (_, i) => ({ i })) };
const manyKeys: Record<string, unknown> = { ...agentTask };
for (let i = 0; i < 1_000_000; i++) manyKeys[`k${i}`] = i;
if (!checkAgentTask(largest) || checkAgentTask(manyDistinct) || checkAgentTask(manyKeys)) throw new Error("agent.task check disagrees on the hostile payloads");
const decodeTask = (v: unknown): boolean => runtime.decode("agent.task", v).ok;
const hostile = race(
  new Map<string, () => unknown>([
    ["check (largest valid)", () => checkAgentTask(largest)],
    ["errors (10,000 objects, maxItems 20, unique)", () => errorsAgentTask(manyDistinct).length],
    ["decode (10,000 objects, maxItems 20, unique)", () => decodeTask(manyDistinct)],
    ["check (1,000,000 unknown root keys)", () => checkAgentTask(manyKeys)],
    ["errors (1,000,000 unknown root keys)", () => errorsAgentTask(manyKeys).length],
    ["decode (1,000,000 unknown root keys)", () => decodeTask(manyKeys)],
  ]),
  3,
  300,
);
const big = "check (largest valid)";
table("agent.task 3.0, hostile payloads against check on the largest valid payload", hostile, [
  [big],
  ["errors (10,000 objects, maxItems 20, unique)", big],
  ["decode (10,000 objects, maxItems 20, unique)", big],
  ["check (1,000,000 unknown root keys)", big],
  ["errors (1,000,000 unknown root keys)", "check (1,000,000 unknown root keys)"],
  ["decode (1,000,000 unknown root keys)", "check (1,000,000 unknown root keys)"],
]);

// `npx tsx bench/run.ts --runtime`: the validator and decode races above only.
if (process.argv.includes("--runtime")) process.exit(sink < 0 ? 1 : 0);

const generateIdl = (out: string): number => {
  const start = performance.now();
  const run = spawnSync(process.execPath, [join(ROOT, "dist/cli/main.js"), "generate", "--out", out], { cwd: ROOT, encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return (performance.now() - start) / 1000;
};
// The first run may find the repository's cache written by another build (the tests run treaty
// from its sources): the second, into another empty directory, finds what this build keeps there.
const [out, again] = [mkdtempSync(join(tmpdir(), "treaty-bench-")), mkdtempSync(join(tmpdir(), "treaty-bench-"))];
const first = generateIdl(out);
const second = generateIdl(again);
console.log(
  `\ntreaty generate over idl/ (process wall time; target 0.6 s): into an empty directory ${first.toFixed(2)} s, again into another (the cache as that run left it) ${second.toFixed(2)} s, rerun ${generateIdl(again).toFixed(2)} s`,
);
for (const dir of [out, again]) rmSync(dir, { recursive: true, force: true });

// Codegen at 100 and at DESIGN.md §9's scale, 1,000 contracts (a cold run takes minutes);
// `npx tsx bench/run.ts 100` for a quick look, `0` skips it (`--runtime` skips all after the races).
const count = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
const contracts = count === undefined ? [100, 1000] : [Number(count)].filter((n) => n > 0);
for (const count of contracts) printCodegen(benchCodegen(count));
printCompileSize(benchCompileSize());
printVersionCounts();
printStore(benchStore());
printPipeline(await benchPipeline());
if (sink < 0) console.log(sink);
