// `npx tsx bench/codegen.ts [contracts...]` (default 100 1000): wall time and peak memory of
// `treaty generate` (the built CLI, one process per run) over a synthetic project of copies of
// idl/task/task.result.yaml cut to its first 3 versions (DESIGN.md §9's targets assume 3): cold (no
// output, no cache), rerun with nothing changed, and after one contract changed; and the bytes it
// writes per contract. A benchmark, not a test: it prints.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDocument } from "yaml";

const ROOT = join(import.meta.dirname, "..");
// TREATY_BENCH_CLI: another build's CLI, to compare two builds in the same period of a noisy machine.
const CLI = process.env["TREATY_BENCH_CLI"] || join(ROOT, "dist/cli/main.js");
const VERSIONS = 3;

export interface CodegenRun {
  readonly scenario: string;
  readonly seconds: number;
  /** Peak resident memory of the process, in bytes. */
  readonly peakRss: number;
  /**
   * CPU seconds of the process (all its threads), in user and in system mode: on this VM the system
   * share of the same cold run has been seen from 3 s to 36 s, and the wall time with it.
   */
  readonly userSeconds: number;
  readonly systemSeconds: number;
  /** DESIGN.md §9's target, in seconds, for 1,000 contracts × 3 versions. */
  readonly target: number;
  /** The CLI's own summary line. */
  readonly summary: string;
}

export interface CodegenBench {
  readonly contracts: number;
  readonly runs: readonly CodegenRun[];
  /** What the cold run wrote, per contract. */
  readonly bytesPerContract: number;
}

const contractName = (i: number): string => `demo.c${String(i).padStart(4, "0")}`;

/** The seed with only its first `VERSIONS` versions, and only the examples of those. */
const seed = (): string => {
  const doc = parseDocument(readFileSync(join(ROOT, "idl/task/task.result.yaml"), "utf8"));
  const versions = (doc.get("versions") as { items: { key: { value: string } }[] }).items;
  const dropped = versions.slice(VERSIONS).map((pair) => pair.key.value);
  for (const version of dropped) doc.deleteIn(["versions", version]);
  const examples = doc.get("examples") as { items: { get(key: string): unknown }[] };
  examples.items = examples.items.filter((example) => !dropped.includes(String(example.get("version"))));
  return doc.toString();
};

/** A project directory (with a package.json, as a user's has) holding `count` contracts. */
export const synthesize = (count: number): { dir: string; contractFile: (i: number) => string } => {
  const dir = mkdtempSync(join(tmpdir(), "treaty-codegen-"));
  const text = seed();
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "codegen-bench", private: true })}\n`);
  mkdirSync(join(dir, "idl/demo"), { recursive: true });
  const contractFile = (i: number): string => join(dir, `idl/demo/${contractName(i)}.yaml`);
  for (let i = 1; i <= count; i++) writeFileSync(contractFile(i), text.replace(/^contract: task\.result$/m, `contract: ${contractName(i)}`));
  return { dir, contractFile };
};

/** Reports the process's peak RSS and CPU time on exit, through a file named by the environment. */
const USAGE_PRELOAD = `data:text/javascript,${encodeURIComponent(
  'import { writeFileSync } from "node:fs"; process.on("exit", () => { const u = process.resourceUsage(); writeFileSync(process.env.TREATY_BENCH_USAGE, JSON.stringify({ peakRss: u.maxRSS * 1024, userSeconds: u.userCPUTime / 1e6, systemSeconds: u.systemCPUTime / 1e6 })); });',
)}`;

const generate = (dir: string): Omit<CodegenRun, "scenario" | "target"> => {
  const usageFile = join(dir, ".usage.json");
  const start = performance.now();
  // TREATY_CACHE_DIR unset: the project's own cache (node_modules/.cache/treaty), empty at first.
  const env = { ...process.env, TREATY_BENCH_USAGE: usageFile, TREATY_CACHE_DIR: "" };
  const run = spawnSync(process.execPath, ["--import", USAGE_PRELOAD, CLI, "generate"], { cwd: dir, encoding: "utf8", env });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`treaty generate failed:\n${run.stderr}`);
  const usage = JSON.parse(readFileSync(usageFile, "utf8")) as Pick<CodegenRun, "peakRss" | "userSeconds" | "systemSeconds">;
  return { seconds, ...usage, summary: run.stderr.trim().split("\n").at(-1) ?? "" };
};

const treeBytes = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);

/** Runs the three scenarios on a fresh synthetic project; removes it afterwards. */
export const benchCodegen = (count = 1000): CodegenBench => {
  const { dir, contractFile } = synthesize(count);
  try {
    const runs: CodegenRun[] = [];
    runs.push({ scenario: "cold (no output, no cache)", target: 10, ...generate(dir) });
    const bytesPerContract = treeBytes(join(dir, "generated")) / count;
    runs.push({ scenario: "rerun, nothing changed", target: 1, ...generate(dir) });
    const changed = contractFile(Math.ceil(count / 2));
    writeFileSync(changed, readFileSync(changed, "utf8").replace("maxLength: 4000", "maxLength: 4001"));
    runs.push({ scenario: "rerun, one contract changed", target: 1.5, ...generate(dir) });
    return { contracts: count, runs, bytesPerContract };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export const printCodegen = (bench: CodegenBench): void => {
  const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
  console.log(
    `\ntreaty generate, ${bench.contracts.toLocaleString("en-US")} copies of task.result × ${VERSIONS} versions (process wall time, and its CPU time in user and system mode; DESIGN.md §9's targets are for 1,000; peak RSS must stay under 1,024 MB)`,
  );
  console.log(`${"".padEnd(30)}${"seconds".padStart(9)}${"target".padStart(9)}${"user s".padStart(9)}${"sys s".padStart(9)}${"peak MB".padStart(9)}  summary`);
  for (const run of bench.runs) {
    const cpu = `${run.userSeconds.toFixed(2).padStart(9)}${run.systemSeconds.toFixed(2).padStart(9)}`;
    console.log(`${run.scenario.padEnd(30)}${run.seconds.toFixed(2).padStart(9)}${`< ${run.target}`.padStart(9)}${cpu}${mb(run.peakRss).padStart(9)}  ${run.summary}`);
  }
  console.log(`written per contract: ${(bench.bytesPerContract / 1024).toFixed(0)} KB`);
};

if (process.argv[1] === import.meta.filename) {
  const counts = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [100, 1000];
  for (const count of counts) printCodegen(benchCodegen(count));
}
