import type { Diagnostic, StageResult } from "../diagnostics/diagnostic.js";
import { LLM_PROVIDERS, type Contract, type Project } from "../ir/model.js";
import type { SourceFile } from "../load/load.js";
import { resolveContract } from "./contract.js";

/**
 * Parsed YAML → the typed model, one contract per file, sorted by name. `llm` is what a contract
 * that has no `llm:` of its own projects to (the config's setting).
 */
export const resolve = (files: readonly SourceFile[], llm: Contract["llm"] = { providers: LLM_PROVIDERS }): StageResult<Project> => {
  const contracts: Contract[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    const { contract, reader } = resolveContract(file, llm);
    diagnostics.push(...reader.diagnostics);
    if (contract) contracts.push(contract);
  }
  contracts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.file < b.file ? -1 : 1));
  return { value: { contracts }, diagnostics };
};
