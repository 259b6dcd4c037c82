import type { ContractAdapters, ProjectAdapters } from "../adapt/model.js";
import type { StageResult } from "../diagnostics/diagnostic.js";
import type { Contract, Project, ResolvedVersion } from "../ir/model.js";
import { contractDir, versionId } from "../ir/names.js";

export type FileKind = "types" | "schema" | "json-schema" | "validator" | "shape" | "version-index" | "adapters" | "contract-index" | "index";

/** One file to generate; paths are relative to the output directory. */
export type FileJob =
  | { readonly kind: "types" | "schema" | "json-schema" | "validator" | "shape" | "version-index"; readonly path: string; readonly contract: Contract; readonly version: ResolvedVersion }
  | { readonly kind: "adapters"; readonly path: string; readonly adapters: ContractAdapters }
  | { readonly kind: "contract-index"; readonly path: string; readonly contract: Contract }
  | { readonly kind: "index"; readonly path: string };

const VERSION_FILES = [
  ["types", "types.ts"],
  ["schema", "schema.ts"],
  ["json-schema", "schema.json"],
  ["validator", "validator.ts"],
  ["shape", "shape.ts"],
  ["version-index", "index.ts"],
] as const;

/** Decides which files the project produces; emit renders them, write reconciles the directory. */
export const plan = (project: Project, adapters: ProjectAdapters): StageResult<FileJob[]> => {
  const jobs: FileJob[] = [];
  for (const contract of project.contracts) {
    const dir = contractDir(contract.name);
    for (const version of contract.versions) {
      for (const [kind, name] of VERSION_FILES) {
        jobs.push({ kind, path: `${dir}/${versionId(version.version)}/${name}`, contract, version });
      }
    }
    jobs.push({ kind: "adapters", path: `${dir}/adapters.ts`, adapters: adapters.contracts.get(contract.name)! });
    jobs.push({ kind: "contract-index", path: `${dir}/index.ts`, contract });
  }
  jobs.push({ kind: "index", path: "index.ts" });
  return { value: jobs, diagnostics: [] };
};
