import type { ContractAdapters, ProjectAdapters } from "../adapt/model.js";
import type { PackageConfig } from "../config/config.js";
import type { StageResult } from "../diagnostics/diagnostic.js";
import { agentCodeSpecifier, type AgentStubsOptions } from "../agent/agent-stubs.js";
import { agentFile } from "../emit/agent.js";
import { packageLayout, type PackageLayout } from "../emit/package.js";
import type { Agent, Contract, LlmProvider, Project, ResolvedVersion } from "../ir/model.js";
import { casesFile, contractDir, testsFile, versionId } from "../ir/names.js";
import { deriveCases } from "../cases/cases.js";
import type { ContractCases } from "../cases/model.js";

export type FileKind =
  | "types"
  | "schema"
  | "json-schema"
  | "validator"
  | "validators"
  | "shape"
  | "version-index"
  | "llm"
  | "llm-reply"
  | "llm-json"
  | "adapters"
  | "registration"
  | "contract-index"
  | "tests"
  | "test-cases"
  | "index"
  | "package-json"
  | "package-tsconfig"
  | "agent"
  | "agents-index";

/** The `package` setting, and the config file it was read from (named in the files' headers). */
export interface GeneratedPackage extends PackageConfig {
  readonly source: string;
}

/** One file to generate; paths are relative to the output directory. */
export type FileJob =
  | { readonly kind: "types" | "schema" | "json-schema" | "validator" | "shape" | "llm" | "llm-reply" | "version-index"; readonly path: string; readonly contract: Contract; readonly version: ResolvedVersion }
  | { readonly kind: "llm-json"; readonly path: string; readonly contract: Contract; readonly version: ResolvedVersion; readonly provider: LlmProvider }
  | { readonly kind: "adapters"; readonly path: string; readonly adapters: ContractAdapters }
  | { readonly kind: "contract-index" | "validators" | "registration"; readonly path: string; readonly contract: Contract }
  | { readonly kind: "tests" | "test-cases"; readonly path: string; readonly cases: ContractCases }
  | { readonly kind: "index" | "agents-index"; readonly path: string }
  /** `code`: the import specifier of the agent's hand-written file. */
  | { readonly kind: "agent"; readonly path: string; readonly agent: Agent; readonly code: string }
  | { readonly kind: "package-json" | "package-tsconfig"; readonly path: string; readonly package: GeneratedPackage; readonly layout: PackageLayout };

/** The contract a file belongs to (it is regenerated with it); undefined for the project's own files. */
export const jobOwner = (job: FileJob): string | undefined => {
  switch (job.kind) {
    case "adapters":
      return job.adapters.contract.name;
    case "tests":
    case "test-cases":
      return job.cases.contract.name;
    case "index":
    case "agents-index":
    case "agent":
    case "package-json":
    case "package-tsconfig":
      return undefined;
    default:
      return job.contract.name;
  }
};

const VERSION_FILES = [
  ["types", "types.ts"],
  ["schema", "schema.ts"],
  ["json-schema", "schema.json"],
  ["validator", "validator.ts"],
  ["shape", "shape.ts"],
  ["llm", "llm.ts"],
  ["llm-reply", "llm-reply.ts"],
  ["version-index", "index.ts"],
] as const;

export interface PlanOptions {
  /** The output directory is also an npm package that builds itself to `dist/`. */
  readonly package?: GeneratedPackage;
  /** Whether to write the regression tests (the config's `tests`). */
  readonly tests: boolean;
  /** Where the project, the contracts and the output are: generated code imports the hand-written files beside the contracts. */
  readonly dirs: AgentStubsOptions & { readonly idlDir: string };
}

/**
 * Decides which files the project produces; emit renders them, write reconciles the directory.
 * The regression tests are chosen here too (`deriveCases`), with a warning for each version they
 * cannot check beyond its examples; without tests there is nothing to warn about.
 */
export const plan = (project: Project, adapters: ProjectAdapters, options: PlanOptions): StageResult<FileJob[]> => {
  const jobs: FileJob[] = [];
  const cases = options.tests ? deriveCases(project, adapters.contracts) : undefined;
  for (const contract of project.contracts) {
    const dir = contractDir(contract.name);
    // First: the largest file to format (a 20,000-field contract's is 16 MB), so the workers format
    // it while the versions' files are emitted, rather than the main thread waiting for it at the end.
    // The versions' validators share its compilation (emit/validator-sharing.ts).
    if (contract.versions.length > 1) jobs.push({ kind: "validators", path: `${dir}/validators.ts`, contract });
    for (const version of contract.versions) {
      for (const [kind, name] of VERSION_FILES) {
        jobs.push({ kind, path: `${dir}/${versionId(version.version)}/${name}`, contract, version });
      }
      for (const provider of contract.llm.providers) {
        jobs.push({ kind: "llm-json", path: `${dir}/${versionId(version.version)}/llm/${provider}.json`, contract, version, provider });
      }
    }
    jobs.push({ kind: "adapters", path: `${dir}/adapters.ts`, adapters: adapters.contracts.get(contract.name)! });
    jobs.push({ kind: "registration", path: `${dir}/registration.ts`, contract });
    jobs.push({ kind: "contract-index", path: `${dir}/index.ts`, contract });
    if (cases) {
      const contractCases = cases.value.get(contract.name)!;
      jobs.push({ kind: "tests", path: testsFile(contract.name), cases: contractCases }, { kind: "test-cases", path: casesFile(contract.name), cases: contractCases });
    }
  }
  jobs.push({ kind: "index", path: "index.ts" });
  for (const agent of project.agents ?? []) jobs.push({ kind: "agent", path: agentFile(agent.name), agent, code: agentCodeSpecifier(agent, options.dirs) });
  if (project.agents) jobs.push({ kind: "agents-index", path: "agents/index.ts" });
  if (options.package) {
    const layout = packageLayout(options.dirs.outDir, options.dirs.idlDir);
    jobs.push({ kind: "package-json", path: "package.json", package: options.package, layout });
    jobs.push({ kind: "package-tsconfig", path: "tsconfig.json", package: options.package, layout });
  }
  return { value: jobs, diagnostics: cases?.diagnostics ?? [] };
};
