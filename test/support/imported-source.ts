// A published schema imported whole by `treaty import`, generated into a project, with what the
// proofs on it need: each contract's generated validator and emitted schema, the generated
// registry's decode and encode, Ajv on the source as referee, and the import's figures.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv, type AnySchema, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { expect } from "vitest";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { importSchema, type ImportedFile } from "../../src/import/import.js";
import { generate } from "../../src/pipeline.js";
import { tempProject } from "./temp-project.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;
const REFERENCE = join(import.meta.dirname, "../reference");

export interface PublishedSource {
  readonly name: string;
  /** Under test/reference. */
  readonly file: string;
  /** The contracts' prefix: `mcp` → `mcp.tool`. */
  readonly prefix: string;
  readonly dialect: "draft-07" | "2020-12";
}

export const SOURCES = {
  mcp: { name: "MCP 2026-07-28", file: "agent-protocols/mcp/schema-2026-07-28.json", prefix: "mcp", dialect: "2020-12" },
  mcpPrevious: { name: "MCP 2025-11-25", file: "agent-protocols/mcp/schema-2025-11-25.json", prefix: "mcp", dialect: "2020-12" },
  mcp2025June: { name: "MCP 2025-06-18", file: "agent-protocols/mcp/schema-2025-06-18.json", prefix: "mcp", dialect: "draft-07" },
  a2a: { name: "A2A v0.3.0", file: "agent-protocols/a2a/a2a-v0.3.0.json", prefix: "a2a", dialect: "draft-07" },
  a2aLater: { name: "A2A 0a9f629e (2025-10-16)", file: "agent-protocols/a2a/a2a-0a9f629e-2025-10-16.json", prefix: "a2a", dialect: "draft-07" },
  registry: { name: "Apicurio Registry v3 (OpenAPI)", file: "schema-registry/apicurio-registry-v3-openapi.json", prefix: "registry", dialect: "draft-07" },
  ccompat: { name: "Apicurio ccompat v7 (OpenAPI)", file: "schema-registry/apicurio-ccompat-v7-openapi.json", prefix: "ccompat", dialect: "draft-07" },
} as const satisfies Record<string, PublishedSource>;

export interface Registry {
  decode(contract: string, value: unknown, options: { version: string }): { ok: boolean; value?: unknown; stripped?: readonly string[] };
  encode(contract: string, value: unknown, version: string): { ok: boolean; value?: unknown };
}

export interface ImportedSource {
  readonly source: PublishedSource;
  readonly path: string;
  /** The generated tree. */
  readonly generated: string;
  readonly document: Record<string, unknown>;
  /** Every named schema of the source (`$defs`, `definitions` or `components.schemas`). */
  readonly definitions: readonly string[];
  readonly files: readonly ImportedFile[];
  readonly diagnostics: readonly Diagnostic[];
  /** Ajv on the source schema at `pointer`. */
  referee(pointer: string): ValidateFunction;
  /** The generated validator of `contract`. */
  check(contract: string): Promise<(value: unknown) => boolean>;
  /** The JSON Schema treaty emitted for `contract`. */
  emitted(contract: string): Record<string, unknown>;
  registry(): Promise<Registry>;
}

/** Imports every object definition of `source` (one contract each), writes them and generates. */
export const importPublished = async (source: PublishedSource): Promise<ImportedSource> => {
  const path = join(REFERENCE, source.file);
  const text = readFileSync(path, "utf8");
  const document = JSON.parse(text) as Record<string, unknown>;
  const root = tempProject(`imported-${source.prefix}`, { "package.json": `{ "type": "module", "treaty": { "tests": false } }\n` });
  const imported = importSchema({ root, file: path, text, outDir: join(root, "idl", source.prefix), contract: source.prefix });
  expect(imported.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  for (const file of imported.value) {
    mkdirSync(join(file.path, ".."), { recursive: true });
    writeFileSync(file.path, file.text);
  }
  const generated = await generate({ root, idlDir: join(root, "idl"), outDir: join(root, "generated"), check: false, tests: false });
  expect(generated.diagnostics.filter((d) => d.severity === "error")).toEqual([]);

  const ajv = source.dialect === "2020-12" ? (new Ajv2020({ strict: false, logger: false }) as unknown as Ajv) : new Ajv({ strict: false, logger: false });
  addFormats(ajv);
  ajv.addSchema(document as AnySchema, "source");
  const defs = (document["$defs"] ?? document["definitions"] ?? (document["components"] as Record<string, unknown> | undefined)?.["schemas"]) as Record<string, unknown>;
  const out = (contract: string) => join(root, "generated", contract, "v1_0");
  return {
    source,
    path,
    generated: join(root, "generated"),
    document,
    definitions: Object.keys(defs),
    files: imported.value,
    diagnostics: imported.diagnostics,
    referee: (pointer) => ajv.compile({ $ref: `source${pointer}` }),
    check: async (contract) => ((await import(pathToFileURL(join(out(contract), "validator.ts")).href)) as { check: (v: unknown) => boolean }).check,
    emitted: (contract) => JSON.parse(readFileSync(join(out(contract), "schema.json"), "utf8")) as Record<string, unknown>,
    registry: async () => (await import(pathToFileURL(join(root, "generated", "index.ts")).href)) as Registry,
  };
};

/** The diagnostics' codes and constructs, counted: `import-not-expressible: an anyOf whose variants may overlap` → 3. */
export const diagnosticKinds = (diagnostics: readonly Diagnostic[]): Record<string, number> => {
  const kinds: Record<string, number> = {};
  for (const d of diagnostics) {
    const what = d.message
      .replace(/ at #\/.*$/s, "")
      .replace(/variants \d+ and \d+ may both match one value \(.*\)$/s, "variants may overlap")
      .replace(/^#\/\S+ refers back to \S+, which contains it.*$/s, "recursion through a schema that is no object")
      .replace(/property "[^"]*"/, "a property")
      .replace(/format "[^"]*"/, "a format");
    const key = `${d.code}: ${what}`;
    kinds[key] = (kinds[key] ?? 0) + 1;
  }
  return kinds;
};

/** Ajv does not check a property named `__proto__` (test/emit/quoted-names.test.ts does, by hand). */
export const holdsProtoKey = (value: unknown): boolean =>
  typeof value === "object" && value !== null && (Object.hasOwn(value, "__proto__") || Object.values(value).some(holdsProtoKey));
