// The contracts now against the contracts at a git ref: published versions are immutable, and
// what changed is what a reviewer needs to see.
import { breakDiagnostics, breaksWithinMajor, promisedDirections } from "../check/bump-rules.js";
import { compare } from "../compat/compare.js";
import type { Difference } from "../compat/difference.js";
import { shapeOfVersion } from "../compat/shape-of-version.js";
import { baseOf, versionDifferences } from "../compat/version-differences.js";
import { createDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import { locAt, type Contract, type Project, type ResolvedVersion } from "../ir/model.js";
import { loadAtRef } from "../load/git.js";
import { resolve } from "../resolve/resolve.js";

/** The project as it is at `ref`; its diagnostics are about the ref's files, so callers keep only the errors that stop them. */
export const projectAtRef = (root: string, idlDir: string, ref: string): StageResult<Project | undefined> => {
  const loaded = loadAtRef(root, idlDir, ref);
  if (loaded.diagnostics.some((d) => d.code === "read-failed")) return { value: undefined, diagnostics: loaded.diagnostics };
  const resolved = resolve(loaded.value);
  return { value: resolved.value, diagnostics: [...loaded.diagnostics, ...resolved.diagnostics] };
};

export interface VersionChange {
  readonly contract: Contract;
  readonly version: ResolvedVersion;
  /** The same version at the ref; absent for a version that is new. */
  readonly before?: { readonly contract: Contract; readonly version: ResolvedVersion };
  /** A new version: the version it builds on, absent for the first. */
  readonly base?: ResolvedVersion;
  /** Against the version at the ref (edited in place), or against the version it builds on (new). */
  readonly differences: readonly Difference[];
  /**
   * An edited version: the differences it only inherits from the edit of the version it builds
   * on (they are reported there, once), and that version.
   */
  readonly inherited?: { readonly from: string; readonly differences: readonly Difference[] };
}

/** Differences that change what a payload may be: anything but documentation. */
export const schemaDifferences = (differences: readonly Difference[]): Difference[] =>
  differences.filter((d) => d.kind !== "description-changed");

/**
 * Every version now, paired with itself at the ref; new versions (and drafts at the ref published
 * now) against the version they build on.
 */
export const versionChanges = (now: Project, then: Project): VersionChange[] => {
  const changes: VersionChange[] = [];
  for (const contract of now.contracts) {
    const old = then.contracts.find((c) => c.name === contract.name);
    const edits = new Map<ResolvedVersion, readonly Difference[]>();
    for (const version of contract.versions) {
      const previous = old?.versions.find((v) => v.version === version.version);
      const base = baseOf(contract, version);
      if (previous) {
        const all = compare(shapeOfVersion(old!, previous), shapeOfVersion(contract, version));
        const baseEdit = (base && edits.get(base)) ?? [];
        const isInherited = (d: Difference): boolean => baseEdit.some((b) => b.kind === d.kind && b.path === d.path && b.reason === d.reason);
        edits.set(version, all);
        // A draft at the ref published now is new since the ref: judged, like any new version, against its base.
        if (previous.status === "draft" && version.status !== "draft") {
          changes.push(base ? { contract, version, base, differences: versionDifferences(contract, base, version) } : { contract, version, differences: [] });
          continue;
        }
        const inherited = all.filter(isInherited);
        const differences = all.filter((d) => !isInherited(d));
        const before = { contract: old!, version: previous };
        changes.push(inherited.length > 0 ? { contract, version, before, differences, inherited: { from: base!.version, differences: inherited } } : { contract, version, before, differences });
        continue;
      }
      // The same engine call as the bump rules, so both read the declared changes and locate alike.
      changes.push(base ? { contract, version, base, differences: versionDifferences(contract, base, version) } : { contract, version, differences: [] });
    }
  }
  return changes;
};

/** A version that was not published at the ref: absent there, or a draft. */
const isNewSince = (then: Project, contract: Contract, version: ResolvedVersion): boolean => {
  const before = then.contracts.find((c) => c.name === contract.name)?.versions.find((v) => v.version === version.version);
  return before === undefined || before.status === "draft";
};

const UNPROMISED = { backward: "backward-incompatible", forward: "forward-incompatible" } as const;

/** Breaks in the directions a contract does not promise, of the versions new since the ref only. */
const unpromisedBreaks = (now: Project, then: Project): Diagnostic[] =>
  now.contracts.flatMap((contract) => {
    const promised = promisedDirections(contract);
    return contract.versions
      .filter((version) => isNewSince(then, contract, version))
      .flatMap((version) => breakDiagnostics(contract, (direction) => UNPROMISED[direction], breaksWithinMajor(contract, version).filter((b) => !promised.includes(b.direction))));
  });

/** Published versions at `ref` that changed schema or vanished. Draft versions may change. */
const immutability = (now: Project, then: Project, ref: string): Diagnostic[] => {
  const diagnostics: Diagnostic[] = [];
  for (const change of versionChanges(now, then)) {
    if (!change.before || change.before.version.status === "draft") continue;
    // An inherited change is reported at the version whose edit brings it, unless that one was a draft.
    const from = change.inherited && change.before.contract.versions.find((v) => v.version === change.inherited!.from);
    const inherited = from?.status === "draft" ? change.inherited!.differences : [];
    // An edit of the contract's own `unknown_fields` changes every object that follows it: one
    // finding per reason, at the edit, rather than one at each object.
    const policyEdited = change.contract.unknownFields !== change.before.contract.unknownFields;
    const seen = new Set<string>();
    for (const d of schemaDifferences([...change.differences, ...inherited])) {
      const atPolicy = policyEdited && (d.kind === "unknown-fields-opened" || d.kind === "unknown-fields-closed");
      const loc = atPolicy ? locAt(change.contract, "unknown_fields") : (d.loc ?? change.version.loc);
      if (atPolicy && seen.has(d.reason)) continue;
      if (atPolicy) seen.add(d.reason);
      diagnostics.push(createDiagnostic("published-version-changed", loc, { version: change.version.version, ref, reason: d.reason }));
    }
  }
  for (const old of then.contracts) {
    const current = now.contracts.find((c) => c.name === old.name);
    for (const version of old.versions) {
      if (version.status === "draft" || current?.versions.some((v) => v.version === version.version)) continue;
      const loc = current?.loc ?? { ...version.loc, file: `${ref}:${version.loc.file}` };
      diagnostics.push(createDiagnostic("published-version-removed", loc, { version: version.version, contract: old.name, ref }));
    }
  }
  return diagnostics;
};

/** What `--against` adds to the current diagnostics, for `check` and `diff` alike. */
export const againstRef = (now: Project, then: Project, ref: string): Diagnostic[] => [...immutability(now, then, ref), ...unpromisedBreaks(now, then)];
