// What each contract version projects to, as data for `check` (a summary, `--projections`, JSON)
// and `diff` (how a version's projections differ from the version it builds on).
import { LLM_PROVIDERS, type Contract, type LlmProvider, type Project, type ResolvedVersion } from "../ir/model.js";
import type { LedgerEntry } from "./model.js";
import { projectVersion } from "./project.js";

/** One provider of one version: projected with what it does not enforce, or left out by `llm:`. */
export type ProviderProjection =
  | { readonly provider: LlmProvider; readonly status: "projected"; readonly name: string; readonly ledger: readonly LedgerEntry[]; readonly widened: readonly string[] }
  | { readonly provider: LlmProvider; readonly status: "opted-out" };

export interface VersionProjections {
  readonly version: string;
  /** Every provider treaty knows, in its order. */
  readonly providers: readonly ProviderProjection[];
}

export interface ContractProjections {
  readonly contract: string;
  readonly file: string;
  readonly versions: readonly VersionProjections[];
}

export const versionProjections = (project: Project, contract: Contract, version: ResolvedVersion): VersionProjections => ({
  version: version.version,
  providers: LLM_PROVIDERS.map((provider): ProviderProjection => {
    if (!contract.llm.providers.includes(provider)) return { provider, status: "opted-out" };
    const { name, ledger, widened } = projectVersion(project, contract, version, provider).value;
    return { provider, status: "projected", name, ledger, widened };
  }),
});

/** Every contract version's projections, in the project's order. */
export const projectionReport = (project: Project): ContractProjections[] =>
  project.contracts.map((contract) => ({
    contract: contract.name,
    file: contract.file,
    versions: contract.versions.map((version) => versionProjections(project, contract, version)),
  }));

/** A ledger entry as one comparable key: where, what, and the bound. */
const entryKey = (entry: LedgerEntry): string => JSON.stringify([entry.path, entry.constraint, entry.value ?? null]);

/** What `after`'s ledger lists that `before`'s does not, and the reverse. */
export const ledgerChanges = (before: readonly LedgerEntry[], after: readonly LedgerEntry[]): { readonly added: LedgerEntry[]; readonly removed: LedgerEntry[] } => {
  const had = new Set(before.map(entryKey));
  const has = new Set(after.map(entryKey));
  return { added: after.filter((e) => !had.has(entryKey(e))), removed: before.filter((e) => !has.has(entryKey(e))) };
};
