import type { Diagnostic, StageResult } from "../diagnostics/diagnostic.js";
import type { Contract, Project } from "../ir/model.js";
import type { SourceFile } from "../load/load.js";
import { resolveContract } from "./contract.js";

/** Parsed YAML → the typed model, one contract per file, sorted by name. */
export const resolve = (files: readonly SourceFile[]): StageResult<Project> => {
  const contracts: Contract[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    const { contract, reader } = resolveContract(file);
    diagnostics.push(...reader.diagnostics);
    if (contract) contracts.push(contract);
  }
  contracts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.file < b.file ? -1 : 1));
  return { value: { contracts }, diagnostics };
};
