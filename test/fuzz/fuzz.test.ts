// A short seeded run of the fuzzer (`npm run fuzz` is the long one): contract mutants through the
// compiler, in-process, and hostile payloads against Ajv. Every crash a run ever found is kept as a
// fixture under test/fixtures/ (its diagnostics checked by test/fixtures.test.ts); one whose fix
// belongs to the generated tests' case builder waits in pending.ts and is run here as a todo.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fuzzContracts } from "./contract-fuzz.js";
import { fuzzPayloads } from "./payload-fuzz.js";
import { fuzzSchemas } from "./schema-fuzz.js";

describe("fuzz (short seeded run)", () => {
  it("60 contract mutants compile to one-line diagnostics, never a throw", async () => {
    const report = await fuzzContracts({ seed: 20261202, count: 60, seconds: 20, generateEvery: 0, cliEvery: 0 });
    expect(report.findings.map((f) => `${f.kind}: ${f.detail}`)).toEqual([]);
    expect(report.mutants).toBeGreaterThan(0);
  });
  it("150 JSON Schema mutants import to one-line diagnostics and contracts check passes, never a throw", async () => {
    const report = await fuzzSchemas({ seed: 20261205, count: 150, seconds: 30, generateEvery: 25 });
    expect(report.findings.map((f) => `${f.kind}: ${f.detail}`)).toEqual([]);
    // Both outcomes are exercised, or a clean run proves little.
    expect(report.imported).toBeGreaterThan(report.mutants * 0.1);
    expect(report.imported).toBeLessThan(report.mutants);
  });
  it("3,000 hostile payloads: the generated check of idl/ agrees with Ajv", async () => {
    const report = await fuzzPayloads({ seed: 20261202, count: 3_000, seconds: 20, only: ["idl"] });
    expect(report.findings).toEqual([]);
    // Both outcomes are exercised, or agreement proves little.
    expect(report.accepted).toBeGreaterThan(report.payloads * 0.05);
    expect(report.accepted).toBeLessThan(report.payloads * 0.95);
  });
});

// Crashes found whose fix lies outside the compiler's checks (see each PENDING.md).
const FIXTURES = join(import.meta.dirname, "../fixtures");
const pending = readdirSync(FIXTURES).filter((c) => c.startsWith("pending-")).sort();
if (pending.length > 0) {
  describe("pending fuzz findings", () => {
    for (const name of pending) it.todo(`${name}: ${readFileSync(join(FIXTURES, name, "PENDING.md"), "utf8").split("\n")[0]}`);
  });
}
