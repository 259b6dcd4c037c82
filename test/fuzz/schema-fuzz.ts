// JSON Schema mutants through `treaty import` (test/fuzz/schema-mutants.ts makes them): each must
// import to diagnostics (never a throw, never over HANG_MS), every diagnostic one line with its
// code; an import that succeeds writes contracts `check` passes (an error at a written file, which
// the import reports rather than write it, is a finding too: the import made an invalid contract);
// and a sample of those generates (in-process, without tests) without a throw.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { importSchema } from "../../src/import/import.js";
import { generate } from "../../src/pipeline.js";
import { formatProblem, HANG_MS, hasFiles, type Finding } from "./contract-fuzz.js";
import { createRandom } from "./random.js";
import { mutateSchema, type Json } from "./schema-mutants.js";

const ROOT = join(import.meta.dirname, "../..");
const REFERENCE = join(ROOT, "test/reference");

export interface SchemaFuzzOptions {
  readonly seed: number;
  readonly count: number;
  readonly seconds: number;
  /** Generate every nth successful import; 0: never. */
  readonly generateEvery: number;
  readonly onProgress?: (report: SchemaFuzzReport) => void;
}

export interface SchemaFuzzReport {
  readonly mutants: number;
  readonly imported: number;
  readonly generated: number;
  readonly slowestMs: number;
  readonly findings: Finding[];
}

interface SchemaSeed {
  readonly schema: Json;
  /** Definitions to import (`--defs`), for a document of many. */
  readonly defs?: readonly string[];
}

const json = (path: string): Json => JSON.parse(readFileSync(join(REFERENCE, path), "utf8")) as Json;

/**
 * The seeds: every schema of the two compatibility suites (small, each a corner of the language),
 * and documents of many definitions (MCP, A2A, an OpenAPI registry), each imported by one of them.
 */
export const schemaSeeds = (): SchemaSeed[] => {
  const apicurio = json("schema-evolution/apicurio-jsonschema-compatibility.json") as { tests: { original: Json; updated: Json }[] };
  const sentry = json("schema-evolution/getsentry-json-schema-diff-cases.json") as { cases: { lhs_old: Json; rhs_new: Json }[] };
  const seeds: SchemaSeed[] = [...apicurio.tests.flatMap((t) => [t.original, t.updated]), ...sentry.cases.flatMap((c) => [c.lhs_old, c.rhs_new])].map((schema) => ({ schema }));
  const documents: [string, (doc: Json) => readonly string[]][] = [
    ["agent-protocols/mcp/schema-2025-06-18.json", (d) => Object.keys((d as { definitions: object }).definitions)],
    ["agent-protocols/a2a/a2a-v0.3.0.json", (d) => Object.keys((d as { definitions: object }).definitions)],
    ["schema-registry/apicurio-ccompat-v7-openapi.json", (d) => Object.keys((d as { components: { schemas: object } }).components.schemas)],
  ];
  for (const [path, names] of documents) {
    const schema = json(path);
    for (const name of names(schema).slice(0, 40)) seeds.push({ schema, defs: [name] });
  }
  return seeds;
};

export const fuzzSchemas = async (options: SchemaFuzzOptions): Promise<SchemaFuzzReport> => {
  const random = createRandom(options.seed);
  const seeds = schemaSeeds();
  const donors = seeds.filter((s) => s.defs === undefined).map((s) => s.schema);
  const scratch = mkdtempSync(join(tmpdir(), "treaty-schema-fuzz-"));
  const report = { mutants: 0, imported: 0, generated: 0, slowestMs: 0, findings: [] as Finding[] };
  const deadline = performance.now() + options.seconds * 1000;
  try {
    for (let i = 0; i < options.count && performance.now() < deadline; i++) {
      const seed = random.pick(seeds);
      const text = mutateSchema(random, seed.schema, donors);
      const project = join(scratch, `m${i}`);
      const file = join(project, "source.json");
      const outDir = join(project, "idl", "imp");
      mkdirSync(project, { recursive: true });
      writeFileSync(file, text);
      writeFileSync(join(project, "package.json"), '{ "name": "fuzz", "private": true }\n');
      // What a finding keeps: the source, and what the import wrote once it wrote it.
      let written: Record<string, string> = {};
      const files = (): Record<string, string> => ({ "source.json": text, ...(seed.defs && { "defs.txt": `${seed.defs.join(",")}\n` }), ...written });
      const found = (kind: Finding["kind"], detail: string) => report.findings.push({ kind, detail, files: files() });
      report.mutants++;
      const started = performance.now();
      let imported: ReturnType<typeof importSchema>;
      try {
        imported = importSchema({ root: project, file, text, outDir, contract: "fz.s", ...(seed.defs && { defs: seed.defs }) });
      } catch (error) {
        found("crash", `import threw: ${(error as Error).stack?.split("\n").slice(0, 4).join(" | ")}`);
        rmSync(project, { recursive: true, force: true });
        continue;
      }
      const took = performance.now() - started;
      report.slowestMs = Math.max(report.slowestMs, took);
      if (took > HANG_MS) found("hang", `import took ${(took / 1000).toFixed(1)} s`);
      const problem = formatProblem(imported.diagnostics);
      if (problem) found("format", problem);
      // The import checks what it would write; an error there is a contract it made and check refused.
      const invalid = imported.diagnostics.find((d) => d.severity === "error" && d.loc !== undefined && d.loc.file !== "source.json");
      if (invalid) found("crash", `import made a contract check refuses: ${invalid.loc!.file}:${invalid.loc!.line}:${invalid.loc!.col} ${invalid.code}: ${invalid.message}`);
      if (imported.value.length > 0) {
        report.imported++;
        if (options.generateEvery > 0 && report.imported % options.generateEvery === 0) {
          for (const f of imported.value) {
            mkdirSync(dirname(f.path), { recursive: true });
            writeFileSync(f.path, f.text);
          }
          written = Object.fromEntries(imported.value.map((f) => [relative(project, f.path).split(sep).join("/"), f.text]));
          report.generated++;
          const out = join(project, "out");
          try {
            const result = await generate({ root: project, idlDir: join(project, "idl"), outDir: out, check: false, tests: false });
            const errors = result.diagnostics.filter((d) => d.severity === "error");
            if (errors.length > 0) found("crash", `generate refused what import wrote: ${errors[0]!.code}: ${errors[0]!.message}`);
            if (errors.length > 0 && hasFiles(out)) found("partial-write", "generate reported errors and wrote files");
          } catch (error) {
            found("crash", `generate threw: ${(error as Error).stack?.split("\n").slice(0, 4).join(" | ")}`);
          }
        }
      }
      rmSync(project, { recursive: true, force: true });
      if (report.mutants % 500 === 0) options.onProgress?.(report);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return report;
};
