// A minor version keeps what its contract's `compatibility` promises against every earlier version
// of its major, checked pair by pair (compatibility is not transitive). A break in a direction the
// contract does not promise is no error; `--against` reports it once, for the version that is new.
// Each break is reported for the version that brings it, not again for the versions built on it.
import { reasonIn, type Difference, type Direction } from "../compat/difference.js";
import { baseOf, versionDifferences } from "../compat/version-differences.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { Compatibility, Contract, ResolvedVersion } from "../ir/model.js";
import { compareVersions } from "../ir/names.js";

const PROMISES: Record<Compatibility, readonly Direction[]> = {
  backward: ["backward"],
  forward: ["forward"],
  full: ["backward", "forward"],
  none: [],
};

/** The directions a contract's minor versions must keep compatible. */
export const promisedDirections = (contract: Contract): readonly Direction[] => PROMISES[contract.compatibility];

/** One difference of `version` against an earlier version of its major that breaks `direction`. */
export interface Break {
  readonly older: ResolvedVersion;
  readonly version: ResolvedVersion;
  readonly difference: Difference;
  readonly direction: Direction;
}

/**
 * Every break `version` brings against each earlier version of its major, in both directions. A
 * break its base already has against the same older version is the base's, reported there once.
 */
export const breaksWithinMajor = (contract: Contract, version: ResolvedVersion): Break[] => {
  const base = baseOf(contract, version);
  const breaks = (older: ResolvedVersion, newer: ResolvedVersion): Break[] =>
    versionDifferences(contract, older, newer).flatMap((difference) =>
      (["backward", "forward"] as const).filter((direction) => difference[direction] === "breaking").map((direction) => ({ older, version: newer, difference, direction })),
    );
  const same = (a: Break, b: Break): boolean => a.direction === b.direction && a.difference.kind === b.difference.kind && a.difference.path === b.difference.path;
  return contract.versions
    .filter((older) => older.major === version.major && older.minor < version.minor)
    .flatMap((older) => {
      const inherited = base && compareVersions(older.version, base.version) < 0 ? breaks(older, base) : [];
      return breaks(older, version).filter((b) => !inherited.some((i) => same(i, b)));
    });
};

const versionList = (versions: readonly ResolvedVersion[]): string =>
  versions.length === 1 ? versions[0]!.version : `${versions.slice(0, -1).map((v) => v.version).join(", ")} and ${versions[versions.length - 1]!.version}`;

/**
 * One diagnostic per change and direction: the breaks of one difference against several earlier
 * versions become one, naming them all, located where the change is written.
 */
export const breakDiagnostics = (contract: Contract, code: (direction: Direction) => DiagnosticCode, breaks: readonly Break[]): Diagnostic[] => {
  const groups = new Map<string, Break[]>();
  for (const b of breaks) {
    const key = [b.version.version, b.direction, b.difference.kind, b.difference.path, reasonIn(b.difference, b.direction)].join("\0");
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  return [...groups.values()].map((group) => {
    const { version, difference, direction } = group[0]!;
    const olders = versionList(group.map((b) => b.older));
    const failure = direction === "backward" ? `readers on ${version.version} fail on ${olders} data` : `readers on ${olders} fail on ${version.version} data`;
    const params = { version: version.version, failure, reason: reasonIn(difference, direction), promise: contract.compatibility, major: version.major + 1 };
    return createDiagnostic(code(direction), difference.loc ?? version.loc, params);
  });
};

/** `bump-too-small` for each break of a promised direction. */
export const bumpRules = (contract: Contract): Diagnostic[] => {
  const promised = promisedDirections(contract);
  return contract.versions.flatMap((version) =>
    breakDiagnostics(contract, () => "bump-too-small", breaksWithinMajor(contract, version).filter((b) => promised.includes(b.direction))),
  );
};
