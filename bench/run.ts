// `npm run bench`: throughput of treaty's generated validator on the seed's task.result 1.2 payload,
// against a hand-written validator and peers (Ajv, TypeBox's compiler, Zod 4), all in this process,
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
import { check as checkV2_0 } from "../generated/task.result/v2_0/validator.js";
import { TaskResultV1_2Schema } from "../generated/task.result/v1_2/schema.js";
import { benchCodegen, printCodegen } from "./codegen.js";
import { benchCompileSize, printCompileSize } from "./compile-size.js";
import { handWrittenCheck } from "./hand-written.js";
import { benchPipeline, printPipeline } from "./pipeline.js";
import { benchStore, printStore } from "./store.js";

const ROOT = join(import.meta.dirname, "..");
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

const contract = parse(readFileSync(join(ROOT, "idl/task/task.result.yaml"), "utf8")) as {
  examples: { version: string; valid?: Record<string, unknown> }[];
};
const valid = contract.examples.find((e) => e.version === "1.2" && e.valid)!.valid!;
const invalid = structuredClone(valid) as { result: { claims: { claim_id: string }[] } };
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
/** Median ops/s over rounds of a fixed time budget each. */
const measure = (fn: () => unknown): number => {
  const rounds: number[] = [];
  for (let round = 0; round < 7; round++) {
    let iterations = 0;
    const start = process.hrtime.bigint();
    const deadline = start + 200_000_000n;
    let now = start;
    while (now < deadline) {
      for (let i = 0; i < 1000; i++) if (fn()) sink++;
      iterations += 1000;
      now = process.hrtime.bigint();
    }
    rounds.push(iterations / (Number(now - start) / 1e9));
  }
  rounds.sort((a, b) => a - b);
  return rounds[3]!;
};

// Sanity: every contender must agree on both payloads before its speed means anything.
const contenders: [string, (v: unknown) => boolean][] = [
  ["hand-written", handWrittenCheck],
  ["treaty check", check],
  ["Ajv", (v) => ajvCheck(v) as boolean],
  ["TypeBox Compile", (v) => typeboxCheck.Check(v)],
  ["Zod 4 safeParse", (v) => zodSchema.safeParse(v).success],
];
for (const [name, fn] of contenders) {
  if (!fn(valid) || fn(invalid)) throw new Error(`${name} disagrees on the bench payloads`);
}
if (errors(invalid).length !== 1) throw new Error("treaty errors should report exactly one issue");
const runtime = createRuntime(registry);
const decode = (v: unknown): boolean => runtime.decode("task.result", v).ok;
if (!decode(valid) || decode(invalid)) throw new Error("runtime decode disagrees on the bench payloads");

for (const [, fn] of [...contenders, ["runtime decode", decode] as const]) measure(() => fn(valid)); // warm up every JIT path first
const base = measure(() => handWrittenCheck(valid));
const rows: [string, number][] = [
  ["hand-written check (valid)", base],
  ["treaty check (valid)", measure(() => check(valid))],
  ["treaty errors (1 nested error)", measure(() => errors(invalid).length)],
  ["runtime decode 1.2 → 2.0 (valid)", measure(() => decode(valid))],
  ["Ajv (valid)", measure(() => ajvCheck(valid))],
  ["Ajv allErrors (1 nested error)", measure(() => !ajvErrors(invalid) && ajvErrors.errors!.length)],
  ["TypeBox Compile Check (valid)", measure(() => typeboxCheck.Check(valid))],
  ["Zod 4 safeParse (valid)", measure(() => zodSchema.safeParse(valid).success)],
];

console.log(`task.result 1.2, seed payload; ratio = hand-written ops/s ÷ ops/s (lower is better)\n`);
console.log(`${"".padEnd(34)}${"ops/s".padStart(14)}${"ns/op".padStart(10)}${"ratio".padStart(9)}`);
for (const [name, ops] of rows) {
  console.log(`${name.padEnd(34)}${Math.round(ops).toLocaleString("en-US").padStart(14)}${(1e9 / ops).toFixed(0).padStart(10)}${(base / ops).toFixed(2).padStart(8)}×`);
}
// The ratio from back-to-back pairs, median of five: a loaded machine shifts both sides of a pair alike.
const pairRatio = (slow: () => unknown, fast: () => unknown): number => {
  const ratios = Array.from({ length: 5 }, () => measure(fast) / measure(slow)).sort((a, b) => a - b);
  return ratios[2]!;
};
const decodeCost = pairRatio(() => decode(valid), () => check(valid));
const decodedValid = runtime.decode("task.result", valid);
if (!decodedValid.ok) throw new Error("the bench payload does not decode");
const canonicalValid = registry.encode("task.result", decodedValid.value, "2.0");
if (!canonicalValid.ok) throw new Error("the bench payload does not encode as 2.0");
const canonicalCost = pairRatio(() => runtime.decode("task.result", canonicalValid.value).ok, () => checkV2_0(canonicalValid.value));
console.log(`\nruntime decode costs ${decodeCost.toFixed(2)}× treaty check alone (1.2 payload read as 2.0; target: within 2×)`);
console.log(`runtime decode costs ${canonicalCost.toFixed(2)}× treaty check alone on the same payload as 2.0 (no adapter)`);

// Decoding an OpenAI reply: `from: "openai"` runs 1.2's null → absent mapping before validating.
// The seed payload has both optional fields, so OpenAI writes it as it is; with `quality` absent,
// OpenAI sends `quality: null`, which the mapping leaves out of a copy of the top level.
const fromOpenAI = (v: unknown): boolean => runtime.decode("task.result", v, { from: "openai" }).ok;
const { quality: _quality, ...withoutQuality } = valid;
const qualityNull = { ...valid, quality: null };
if (!fromOpenAI(valid) || !decode(withoutQuality) || !fromOpenAI(qualityNull) || decode(qualityNull)) {
  throw new Error("decode from openai disagrees on the bench payloads");
}
const fromCost = pairRatio(() => fromOpenAI(valid), () => decode(valid));
const nullCost = pairRatio(() => fromOpenAI(qualityNull), () => decode(withoutQuality));
console.log(`runtime decode { from: "openai" } costs ${fromCost.toFixed(2)}× plain decode on the seed payload (no null to map)`);
console.log(`runtime decode { from: "openai" } of the payload with quality: null costs ${nullCost.toFixed(2)}× plain decode of it without quality`);

const out = mkdtempSync(join(tmpdir(), "treaty-bench-"));
const generateIdl = (): number => {
  const start = performance.now();
  const run = spawnSync(process.execPath, [join(ROOT, "dist/cli/main.js"), "generate", "--out", out], { cwd: ROOT, encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return (performance.now() - start) / 1000;
};
console.log(`\ntreaty generate over idl/ (process wall time): into an empty directory ${generateIdl().toFixed(2)} s, rerun ${generateIdl().toFixed(2)} s`);
rmSync(out, { recursive: true, force: true });

// Codegen at 100 and at DESIGN.md §9's scale, 1,000 contracts (a cold run takes minutes);
// `npx tsx bench/run.ts 100` for a quick look, `0` skips it.
const contracts = process.argv[2] === undefined ? [100, 1000] : [Number(process.argv[2])].filter((n) => n > 0);
for (const count of contracts) printCodegen(benchCodegen(count));
printCompileSize(benchCompileSize());
printStore(benchStore());
printPipeline(await benchPipeline());
if (sink < 0) console.log(sink);
