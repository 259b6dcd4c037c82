// Chooses the regression tests generated beside each contract (see model.ts): its examples, the
// mutations of a base value, and its older versions' values through the canonical model.
import type { ContractAdapters } from "../adapt/model.js";
import { createDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import type { Contract, Example, Project, ResolvedVersion } from "../ir/model.js";
import { compareVersions } from "../ir/names.js";
import type { BaseValue, CompatibilityCase, ContractCases, ValueCase, VersionCases } from "./model.js";
import { deriveMutations } from "./mutations.js";
import { createSynthesizer, type Synthesizer } from "./synthesize.js";

const exampleTitle = (example: Example, index: number): string =>
  example.description === undefined ? `example ${index + 1}` : `example ${index + 1} (${example.description.replace(/\.$/, "")})`;

const exampleCase = (example: Example, index: number): ValueCase => {
  const title = exampleTitle(example, index);
  if (example.valid) return { title: `accepts ${title}`, value: example.value };
  const expect = example.expect!;
  return { title: `rejects ${title} at ${expect.path || '""'} with ${expect.code}`, value: example.value, expect };
};

/** The warning for a version with no valid example that treaty cannot synthesize a payload of. */
const noValidValue = (version: ResolvedVersion, reason: string): Diagnostic =>
  createDiagnostic("no-valid-value", version.loc, { version: version.version, reason });

/** The `no-valid-value` warnings `generate` gives (with tests on), for `check`, which derives no tests. */
export const missingValues = (project: Project): Diagnostic[] => {
  const synthesizer = createSynthesizer(project);
  return project.contracts.flatMap((contract) =>
    contract.versions.flatMap((version) => {
      if (version.examples.some((e) => e.valid)) return [];
      const made = synthesizer.payload(contract, version);
      return "reason" in made ? [noValidValue(version, made.reason)] : [];
    }),
  );
};

interface VersionOutcome {
  readonly cases: VersionCases;
  readonly diagnostic?: Diagnostic;
}

const versionCases = (contract: Contract, version: ResolvedVersion, synthesizer: Synthesizer): VersionOutcome => {
  const values = version.examples.map(exampleCase);
  const index = version.examples.findIndex((e) => e.valid);
  let base: BaseValue | undefined = index < 0 ? undefined : { value: version.examples[index]!.value, from: exampleTitle(version.examples[index]!, index) };
  if (!base) {
    const made = synthesizer.payload(contract, version);
    if ("reason" in made) {
      const missing = `treaty cannot synthesize a valid value (${made.reason})`;
      return { cases: { version, values, mutations: [], missing }, diagnostic: noValidValue(version, made.reason) };
    }
    base = { value: made.value, from: "synthesized" };
    values.push({ title: "accepts a synthesized minimal value", value: made.value });
  }
  return { cases: { version, values, base, mutations: deriveMutations(contract, version, base.value, synthesizer) } };
};

/**
 * Older versions' valid values (examples, or the synthesized base) on their way to the canonical
 * model, and from there back to their own version and to each one up to the canonical.
 */
const compatibilityCases = (contract: Contract, versions: readonly VersionCases[], adapters: ContractAdapters): CompatibilityCase[] => {
  const older = versions.map((v) => v.version.version).filter((v) => compareVersions(v, contract.canonical) < 0);
  return versions
    .filter((v) => older.includes(v.version.version))
    .flatMap((v) => {
      const version = v.version.version;
      const lossless = adapters.versions.find((a) => a.version.version === version)!.lossless;
      const newer = older.filter((o) => compareVersions(o, version) > 0);
      const valid = v.values.filter((c) => c.expect === undefined);
      return valid.map((c) => ({ title: `${version} ${c.title.replace(/^accepts /, "")}`, version, value: c.value, lossless, newer }));
    });
};

/** The generated tests of every contract, and a warning for each version without a value to test. */
export const deriveCases = (project: Project, adapters: ReadonlyMap<string, ContractAdapters>): StageResult<ReadonlyMap<string, ContractCases>> => {
  const synthesizer = createSynthesizer(project);
  const diagnostics: Diagnostic[] = [];
  const value = new Map<string, ContractCases>();
  for (const contract of project.contracts) {
    const outcomes = contract.versions.map((version) => versionCases(contract, version, synthesizer));
    diagnostics.push(...outcomes.flatMap((o) => (o.diagnostic ? [o.diagnostic] : [])));
    const versions = outcomes.map((o) => o.cases);
    value.set(contract.name, { contract, versions, compatibility: compatibilityCases(contract, versions, adapters.get(contract.name)!) });
  }
  return { value, diagnostics };
};
