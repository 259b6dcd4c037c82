// `npx tsx bench/generated-tests.ts [fields] [versions]`: a contract of `fields` fields (2,000 by
// default) over `versions` versions (6), generated with the built CLI; prints the bytes and case
// count of its generated tests and the wall time vitest takes to run them. A benchmark, not a test.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");

/** One field of each kind the case generator mutates differently, in turn. */
const FIELD_KINDS = [
  (n: string) => `      ${n}: { type: string, maxLength: 64 }`,
  (n: string) => `      ${n}: { type: string, pattern: "^ID-[0-9]+$", maxLength: 32 }`,
  (n: string) => `      ${n}: { type: int, min: 0, max: 1000 }`,
  (n: string) => `      ${n}: { type: number, exclusiveMin: 0, multipleOf: 0.5 }`,
  (n: string) => `      ${n}: { type: Level }`,
  (n: string) => `      ${n}: { type: bool, optional: true }`,
  (n: string) => `      ${n}: { type: list, of: { type: string, minLength: 1, maxLength: 10 }, maxItems: 5 }`,
  (n: string) => `      ${n}: { type: timestamp, nullable: absent }`,
  (n: string) => `      ${n}: { type: object, optional: true, fields: { a: { type: int, min: 1 }, b: { type: string, minLength: 2 } } }`,
];

/** The contract's YAML: `fields` fields in 1.0, one more added by each later version. */
export const wideContract = (name: string, fields: number, versions: number): string => {
  // Past Anthropic's request budgets (its optional parameters): that provider is left out.
  const lines = [`contract: ${name}`, "owner: bench", "unknown_fields: reject", "llm: { providers: [openai, gemini, mcp] }", "enums:", "  Level: { values: { LOW: low, HIGH: high } }", "versions:", '  "1.0":', "    fields:"];
  for (let i = 0; i < fields; i++) lines.push(FIELD_KINDS[i % FIELD_KINDS.length]!(`f${String(i).padStart(5, "0")}`));
  for (let v = 1; v < versions; v++) {
    lines.push(`  "1.${v}":`, "    changes:", `      - add: added_${v}`, "        optional: true", "        type: { type: string, maxLength: 8 }");
  }
  return `${lines.join("\n")}\n`;
};

const fileBytes = (dir: string, test: (name: string) => boolean): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && test(e.name))
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);

const main = (): void => {
  const fields = Number(process.argv[2] ?? 2000);
  const versions = Number(process.argv[3] ?? 6);
  mkdirSync(join(ROOT, ".scratch"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, ".scratch", "bench-generated-tests-"));
  try {
    mkdirSync(join(dir, "idl"));
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "bench", private: true, type: "module" })}\n`);
    writeFileSync(join(dir, "idl/demo.wide.yaml"), wideContract("demo.wide", fields, versions));
    let start = performance.now();
    const generate = spawnSync(process.execPath, [join(ROOT, "dist/cli/main.js"), "generate"], { cwd: dir, encoding: "utf8" });
    if (generate.status !== 0) throw new Error(`treaty generate failed:\n${generate.stderr}`);
    const generateSeconds = (performance.now() - start) / 1000;
    const out = join(dir, "generated/demo.wide");
    const bytes = fileBytes(out, (n) => n.includes(".test.") || n.includes(".cases."));
    writeFileSync(
      join(dir, "vitest.config.mjs"),
      `export default ${JSON.stringify({
        root: dir,
        resolve: { alias: { "treaty/runtime": join(ROOT, "src/runtime/index.ts"), "treaty/typebox": join(ROOT, "src/runtime/typebox.ts"), "treaty/testing": join(ROOT, "src/testing/index.ts") } },
        test: { include: ["generated/**/*.test.ts"] },
      })};\n`,
    );
    start = performance.now();
    const report = join(dir, "report.json");
    spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "vitest.config.mjs", "--reporter=json", `--outputFile=${report}`], { cwd: dir, encoding: "utf8" });
    const vitestSeconds = (performance.now() - start) / 1000;
    const results = JSON.parse(readFileSync(report, "utf8")) as { numTotalTests: number; numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    console.log(`${fields} fields × ${versions} versions: generate ${generateSeconds.toFixed(1)} s; generated tests ${bytes.toLocaleString("en")} bytes`);
    console.log(`vitest ${vitestSeconds.toFixed(1)} s: ${results.numTotalTests} tests, ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests + results.numTodoTests} skipped or todo`);
  } finally {
    if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[1] === import.meta.filename) main();
