// `npx tsx bench/codegen.ts [contracts]`: wall time of `treaty generate` (the built CLI, one process
// per run) over a synthetic project of copies of idl/task/task.result.yaml (each with its versions,
// 3 when this was written), cold, rerun with nothing changed, and after one contract changed.
// A benchmark, not a test: it prints.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "dist/cli/main.js");

export interface CodegenRun {
  readonly scenario: string;
  readonly seconds: number;
  /** DESIGN.md §9's target, in seconds, for 1,000 contracts × 3 versions. */
  readonly target: number;
  /** The CLI's own summary line. */
  readonly summary: string;
}

const contractName = (i: number): string => `demo.c${String(i).padStart(4, "0")}`;

/** A project directory (with a package.json, as a user's has) holding `count` contracts. */
const synthesize = (count: number): { dir: string; contractFile: (i: number) => string } => {
  const dir = mkdtempSync(join(tmpdir(), "treaty-codegen-"));
  const seed = readFileSync(join(ROOT, "idl/task/task.result.yaml"), "utf8");
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "codegen-bench", private: true })}\n`);
  mkdirSync(join(dir, "idl/demo"), { recursive: true });
  const contractFile = (i: number): string => join(dir, `idl/demo/${contractName(i)}.yaml`);
  for (let i = 1; i <= count; i++) {
    writeFileSync(contractFile(i), seed.replace(/^contract: task\.result$/m, `contract: ${contractName(i)}`));
  }
  return { dir, contractFile };
};

const generate = (dir: string): { seconds: number; summary: string } => {
  const start = performance.now();
  const run = spawnSync(process.execPath, [CLI, "generate"], { cwd: dir, encoding: "utf8" });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`treaty generate failed:\n${run.stderr}`);
  return { seconds, summary: run.stderr.trim().split("\n").at(-1) ?? "" };
};

/** Runs the three scenarios on a fresh synthetic project; removes it afterwards. */
export const benchCodegen = (count = 1000): CodegenRun[] => {
  const { dir, contractFile } = synthesize(count);
  try {
    const runs: CodegenRun[] = [];
    runs.push({ scenario: "cold (no output, no cache)", target: 10, ...generate(dir) });
    runs.push({ scenario: "rerun, nothing changed", target: 1, ...generate(dir) });
    const changed = contractFile(Math.ceil(count / 2));
    writeFileSync(changed, readFileSync(changed, "utf8").replace("maxLength: 4000", "maxLength: 4001"));
    runs.push({ scenario: "rerun, one contract changed", target: 1.5, ...generate(dir) });
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export const printCodegen = (count: number, runs: readonly CodegenRun[]): void => {
  console.log(`\ntreaty generate, ${count.toLocaleString("en-US")} copies of task.result (process wall time; DESIGN.md §9's targets are for 1,000 × 3 versions)`);
  console.log(`${"".padEnd(30)}${"seconds".padStart(9)}${"target".padStart(9)}  summary`);
  for (const run of runs) {
    console.log(`${run.scenario.padEnd(30)}${run.seconds.toFixed(2).padStart(9)}${`< ${run.target}`.padStart(9)}  ${run.summary}`);
  }
};

if (process.argv[1] === import.meta.filename) {
  const count = Number(process.argv[2] ?? 1000);
  printCodegen(count, benchCodegen(count));
}
