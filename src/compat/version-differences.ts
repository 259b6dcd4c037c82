// The engine on two versions of one contract: their shapes plus the changes declared in between.
import type { Change, Contract, ResolvedVersion } from "../ir/model.js";
import { compareVersions } from "../ir/names.js";
import { compare } from "./compare.js";
import type { Difference } from "./difference.js";
import { shapeOfVersion } from "./shape-of-version.js";

/**
 * The changes declared on the way from `older` to `newer`, oldest first: `newer`'s, then those of
 * the version it starts `from`, and so on back to `older`. A version that lists its fields ends
 * the chain (nothing before it is declared relative to it).
 */
const declaredBetween = (contract: Contract, older: ResolvedVersion, newer: ResolvedVersion): readonly Change[] => {
  const chain: Change[][] = [];
  let current: ResolvedVersion | undefined = newer;
  while (current && compareVersions(current.version, older.version) > 0) {
    chain.unshift([...current.changes]);
    const from: string | undefined = current.from;
    current = from === undefined ? undefined : contract.versions.find((v) => v.version === from);
  }
  return chain.flat();
};

/** The version `version` builds on: the one its changes start `from`, else the one before it. */
export const baseOf = (contract: Contract, version: ResolvedVersion): ResolvedVersion | undefined =>
  contract.versions.find((v) => v.version === version.from) ?? contract.versions[contract.versions.indexOf(version) - 1];

/** Every difference from `older` to `newer` of `contract`, judged in both directions. */
export const versionDifferences = (contract: Contract, older: ResolvedVersion, newer: ResolvedVersion): readonly Difference[] => {
  let byNewer = judged.get(older);
  if (byNewer === undefined) judged.set(older, (byNewer = new WeakMap()));
  let differences = byNewer.get(newer);
  if (differences === undefined) {
    differences = compare(shapeOfVersion(contract, older), shapeOfVersion(contract, newer), { declared: declaredBetween(contract, older, newer) });
    byNewer.set(newer, differences);
  }
  return differences;
};

// Each pair judged once: a version's breaks are told from its base's against the same older versions.
const judged = new WeakMap<ResolvedVersion, WeakMap<ResolvedVersion, readonly Difference[]>>();
