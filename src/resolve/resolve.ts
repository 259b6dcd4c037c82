import { isAgentFile, resolveAgent } from "../agent/resolve-agent.js";
import type { Diagnostic, StageResult } from "../diagnostics/diagnostic.js";
import { LLM_PROVIDERS, type Agent, type Contract, type Project } from "../ir/model.js";
import type { SourceFile } from "../load/load.js";
import { resolveContract } from "./contract.js";

const byName = <T extends { name: string; file: string }>(a: T, b: T): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.file < b.file ? -1 : 1;

/** What the files of a share of a project resolve to, in their order: put together by `assemble`. */
export interface Resolved {
  readonly contracts: Contract[];
  readonly agents: Agent[];
  readonly diagnostics: Diagnostic[];
}

/** Each file resolved on its own: a file's model never depends on another file (references are checked later). */
export const resolveEach = (files: readonly SourceFile[], llm: Contract["llm"]): Resolved => {
  const contracts: Contract[] = [];
  const agents: Agent[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    if (isAgentFile(file.path)) {
      const { agent, reader } = resolveAgent(file);
      diagnostics.push(...reader.diagnostics);
      if (agent) agents.push(agent);
      continue;
    }
    const { contract, reader } = resolveContract(file, llm);
    diagnostics.push(...reader.diagnostics);
    if (contract) contracts.push(contract);
  }
  return { contracts, agents, diagnostics };
};

/** The project of shares resolved apart (in the order of their files), sorted by name as `resolve` sorts it. */
export const assemble = (shares: readonly Resolved[]): StageResult<Project> => {
  const contracts = shares.flatMap((s) => s.contracts).sort(byName);
  const agents = shares.flatMap((s) => s.agents).sort(byName);
  return { value: agents.length > 0 ? { contracts, agents } : { contracts }, diagnostics: shares.flatMap((s) => s.diagnostics) };
};

/** What a contract without an `llm:` of its own projects to when the config says nothing: every provider. */
export const defaultLlm = (): Contract["llm"] => ({ providers: LLM_PROVIDERS });

/**
 * Parsed YAML → the typed model: one contract per file, or one agent per `*.agent.yaml`, sorted by
 * name. `llm` is what a contract that has no `llm:` of its own projects to (the config's setting).
 */
export const resolve = (files: readonly SourceFile[], llm: Contract["llm"] = defaultLlm()): StageResult<Project> => assemble([resolveEach(files, llm)]);
