// `npx tsx bench/compile-size.ts`: how `check` and `generate` grow with one contract's size. One
// contract of 1,000, 5,000 and 20,000 fields over two versions (the second adds and constrains
// 20 fields), each command in a fresh process (the built pipeline), timed, with its peak memory (max
// RSS); the growth ratio is time (or memory) per field at a size ÷ at the smallest: 1.0 is linear.
// A benchmark, not a test: it prints.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
export const COMPILE_SIZES = [1_000, 5_000, 20_000] as const;

/** A contract of `fields` fields: strings, ints, enums, lists and small objects, and a second version. */
export const sizedContract = (fields: number): string => {
  const lines = ["contract: demo.sized", "owner: bench", "llm: { providers: [gemini, mcp] }", "enums:", "  Level:", "    values:", "      LOW: Low.", "      HIGH: High.", "versions:", '  "1.0":', "    fields:"];
  for (let i = 0; i < fields; i++) {
    const name = `f${i}`;
    switch (i % 5) {
      case 0:
        lines.push(`      ${name}: { type: string, maxLength: ${10 + (i % 90)}, pattern: "^[A-Za-z0-9 ]*$" }`);
        break;
      case 1:
        lines.push(`      ${name}: { type: int, min: 0, max: ${i}, optional: true }`);
        break;
      case 2:
        lines.push(`      ${name}: Level`);
        break;
      case 3:
        lines.push(`      ${name}: { type: list, of: { type: string, maxLength: 20 }, maxItems: 10 }`);
        break;
      default:
        lines.push(`      ${name}: { type: object, fields: { a: { type: string, maxLength: 8 }, b: { type: number, optional: true } } }`);
    }
  }
  lines.push('  "1.1":', "    changes:");
  for (let i = 0; i < 20; i++) lines.push(`      - { add: g${i}, type: string, maxLength: 5, optional: true }`);
  for (let i = 0; i < 20; i++) lines.push(`      - { constrain: f${i * 5}, maxLength: 200 }`);
  return `${lines.join("\n")}\n`;
};

export interface CompileSizeRun {
  readonly fields: number;
  readonly command: "check" | "generate";
  readonly seconds: number;
  readonly peakMb: number;
}

// TREATY_BENCH_BUILD: another build's root (holding dist/), to compare two builds in the same period of a noisy machine.
const BUILD = process.env["TREATY_BENCH_BUILD"] || ROOT;

// The child runs the pipeline itself (no CLI printing) and reports its time and max RSS.
const CHILD = `
import { compile, generate } from ${JSON.stringify(join(BUILD, "dist/pipeline.js"))};
const [command, root] = process.argv.slice(1);
const start = performance.now();
const options = { root, idlDir: root + "/idl" };
const result = command === "check" ? compile(options) : await generate({ ...options, outDir: root + "/generated", check: false });
const errors = result.diagnostics.filter((d) => d.severity === "error");
if (errors.length > 0) { console.error(errors.slice(0, 3).map((d) => d.message).join("\\n")); process.exit(1); }
console.log(JSON.stringify({ seconds: (performance.now() - start) / 1000, peakMb: process.resourceUsage().maxRSS / 1024 }));
`;

/** `command` over a project holding `contract`, in a fresh process: its seconds and peak memory. */
const timed = (command: CompileSizeRun["command"], contract: string): { seconds: number; peakMb: number } => {
  const dir = mkdtempSync(join(tmpdir(), "treaty-size-"));
  try {
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "size-bench", private: true })}\n`);
    mkdirSync(join(dir, "idl"));
    writeFileSync(join(dir, "idl/demo.sized.yaml"), contract);
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, command, dir], { encoding: "utf8", env: { ...process.env, TREATY_CACHE_DIR: join(dir, ".cache") } });
    if (child.status !== 0) throw new Error(`${command} failed:\n${child.stderr}`);
    return JSON.parse(child.stdout) as { seconds: number; peakMb: number };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const run = (command: CompileSizeRun["command"], fields: number): CompileSizeRun => ({ fields, command, ...timed(command, sizedContract(fields)) });

export const VERSION_COUNTS = [30, 60, 120] as const;

/** A contract of 10 fields and `versions` minor versions, each adding an optional field: the bump rules compare every pair. */
export const versionedContract = (versions: number): string => {
  // Past 24 versions its optional fields cross Anthropic's request budget: that provider is left out.
  const lines = ["contract: demo.sized", "owner: bench", "llm: { providers: [openai, gemini, mcp] }", "versions:", '  "1.0":', "    fields:"];
  for (let i = 0; i < 10; i++) lines.push(`      f${i}: { type: string, maxLength: 20 }`);
  for (let v = 1; v < versions; v++) lines.push(`  "1.${v}":`, "    changes:", `      - { add: g${v}, type: { type: int, min: 0 }, optional: true }`);
  return `${lines.join("\n")}\n`;
};

/** `check` and `generate` of one contract of 30, 60 and 120 versions: seconds, and per version ÷ the smallest's. */
export const printVersionCounts = (counts: readonly number[] = VERSION_COUNTS): void => {
  console.log(`\ncompile cost by version count (one contract of 10 fields; growth = per-version cost ÷ the smallest's; every pair of a major is compared, so 2.00× per doubling is the pairs' share)`);
  console.log(`${"".padEnd(18)}${"versions".padStart(8)}${"seconds".padStart(10)}${"growth".padStart(9)}${"peak MB".padStart(10)}`);
  for (const command of ["check", "generate"] as const) {
    const rows = counts.map((versions) => ({ versions, ...timed(command, versionedContract(versions)) }));
    for (const r of rows) {
      const growth = r.seconds / r.versions / (rows[0]!.seconds / rows[0]!.versions);
      console.log(`${`treaty ${command}`.padEnd(18)}${String(r.versions).padStart(8)}${r.seconds.toFixed(2).padStart(10)}${`${growth.toFixed(2)}×`.padStart(9)}${r.peakMb.toFixed(0).padStart(10)}`);
    }
  }
};

export const benchCompileSize = (sizes: readonly number[] = COMPILE_SIZES, commands: readonly CompileSizeRun["command"][] = ["check", "generate"]): CompileSizeRun[] =>
  commands.flatMap((command) => sizes.map((fields) => run(command, fields)));

export const printCompileSize = (runs: readonly CompileSizeRun[]): void => {
  console.log(`\ncompile cost by contract size (one contract, two versions; growth = per-field cost ÷ the smallest's, 1.00 is linear)`);
  console.log(`${"".padEnd(18)}${"fields".padStart(8)}${"seconds".padStart(10)}${"growth".padStart(9)}${"peak MB".padStart(10)}${"growth".padStart(9)}`);
  for (const command of ["check", "generate"] as const) {
    const rows = runs.filter((r) => r.command === command);
    const first = rows[0];
    if (!first) continue;
    for (const r of rows) {
      const timeGrowth = r.seconds / r.fields / (first.seconds / first.fields);
      const memoryGrowth = r.peakMb / r.fields / (first.peakMb / first.fields);
      console.log(`${`treaty ${command}`.padEnd(18)}${r.fields.toLocaleString("en-US").padStart(8)}${r.seconds.toFixed(2).padStart(10)}${`${timeGrowth.toFixed(2)}×`.padStart(9)}${r.peakMb.toFixed(0).padStart(10)}${`${memoryGrowth.toFixed(2)}×`.padStart(9)}`);
    }
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  // `npx tsx bench/compile-size.ts [check|generate] [sizes...]`, or `versions [counts...]`
  const args = process.argv.slice(2);
  const commands = args[0] === "check" || args[0] === "generate" ? [args.shift() as CompileSizeRun["command"]] : undefined;
  if (args[0] === "versions") printVersionCounts(args.length > 1 ? args.slice(1).map(Number) : VERSION_COUNTS);
  else printCompileSize(benchCompileSize(args.length > 0 ? args.map(Number) : COMPILE_SIZES, commands));
}
