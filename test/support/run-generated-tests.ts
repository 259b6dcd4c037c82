// Runs generated tests outside this repo's vitest config: one vitest process over `dir`, with
// treaty's runtime and testing entry from source (as test/vitest.config.ts aliases it), read back as vitest's JSON report.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

export interface VitestReport {
  testResults: { name: string; assertionResults: { title: string; status: string }[] }[];
}

/** Runs the test files under `dir` that `include` matches; the report, also when tests fail. */
export const runGeneratedTests = (dir: string, include: string): VitestReport => {
  const config = join(dir, "vitest.config.mjs");
  writeFileSync(
    config,
    `export default ${JSON.stringify({
      root: dir,
      resolve: { alias: { "treaty/runtime": join(ROOT, "src/runtime/index.ts"), "treaty/testing": join(ROOT, "src/testing/index.ts") } },
      test: { include: [include] },
    })};\n`,
  );
  const output = join(dir, "report.json");
  spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", config, "--reporter=json", `--outputFile=${output}`], { cwd: dir, encoding: "utf8" });
  return JSON.parse(readFileSync(output, "utf8")) as VitestReport;
};
