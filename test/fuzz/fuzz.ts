// `npm run fuzz [-- --seed N --contracts N --payloads N --schemas N --seconds N --generate-every N --cli-every N]`:
// contract mutants through the compiler, hostile payloads against Ajv and JSON Schema mutants
// through `treaty import` (test/fuzz/*.ts say what each checks). Seeded and bounded by count and time; prints a summary, writes every finding as a
// project under a temporary directory (keep each as a fixture under test/fixtures/ once fixed) and
// exits 1 if there was any.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fuzzContracts, saveFindings } from "./contract-fuzz.js";
import { fuzzPayloads } from "./payload-fuzz.js";
import { fuzzSchemas } from "./schema-fuzz.js";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "1" },
    contracts: { type: "string", default: "10000" },
    payloads: { type: "string", default: "100000" },
    schemas: { type: "string", default: "3000" },
    seconds: { type: "string", default: "1200" },
    "generate-every": { type: "string", default: "50" },
    "cli-every": { type: "string", default: "500" },
  },
});
const seed = Number(values.seed);
const seconds = Number(values.seconds);
const started = performance.now();

const contracts = await fuzzContracts({
  seed,
  count: Number(values.contracts),
  seconds,
  generateEvery: Number(values["generate-every"]),
  cliEvery: Number(values["cli-every"]),
  onProgress: (r) => console.error(`  ${r.mutants} mutants, ${r.findings.length} findings, ${((performance.now() - started) / 1000).toFixed(0)} s`),
});
console.log(
  `contracts: ${contracts.mutants} mutants (seed ${seed}), ${contracts.compiled} compiled, ${contracts.generated} generated in-process, ${contracts.spawned} through the CLI (${contracts.slowCli} over 10 s once, done on a second run); slowest compile ${(contracts.slowestMs / 1000).toFixed(2)} s; ${contracts.findings.length} findings`,
);
const payloads = await fuzzPayloads({ seed, count: Number(values.payloads), seconds: Math.max(1, seconds - (performance.now() - started) / 1000) });
console.log(`payloads: ${payloads.payloads} over ${payloads.versions} contract versions, ${payloads.accepted} accepted; ${payloads.findings.length} findings`);

const schemas = await fuzzSchemas({ seed, count: Number(values.schemas), seconds: Math.max(1, seconds - (performance.now() - started) / 1000), generateEvery: 10 });
console.log(`schemas: ${schemas.mutants} mutants imported, ${schemas.imported} imported a contract, ${schemas.generated} generated; slowest import ${(schemas.slowestMs / 1000).toFixed(2)} s; ${schemas.findings.length} findings`);
for (const f of contracts.findings.slice(0, 20)) console.log(`  contract ${f.kind}: ${f.detail.slice(0, 300)}`);
for (const f of schemas.findings.slice(0, 20)) console.log(`  schema ${f.kind}: ${f.detail.slice(0, 300)}`);
for (const f of payloads.findings.slice(0, 20)) console.log(`  payload ${f.version}: ${f.detail}: ${f.value.slice(0, 300)}`);
if (contracts.findings.length + schemas.findings.length > 0) {
  const dir = mkdtempSync(join(tmpdir(), "treaty-fuzz-findings-"));
  saveFindings([...contracts.findings, ...schemas.findings], dir);
  console.log(`findings written to ${dir}`);
}
console.log(`in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = contracts.findings.length + payloads.findings.length + schemas.findings.length > 0 ? 1 : 0;
