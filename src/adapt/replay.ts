// The models between a version's declared changes: what the fields and enums looked like just
// before and after each change. Adapters need them to reverse a change (the removed field's
// declaration, the type before a retype).
import type { Change, Contract, ResolvedVersion } from "../ir/model.js";
import { applyChange, type VersionModel } from "../resolve/changes.js";

export interface ReplayedChange {
  readonly change: Change;
  readonly before: VersionModel;
  readonly after: VersionModel;
}

/** The version a version's adapters start from: its `from`, or the one before it when it re-lists its fields. */
export const parentOf = (contract: Contract, version: ResolvedVersion): ResolvedVersion | undefined => {
  if (version.from !== undefined) return contract.versions.find((v) => v.version === version.from);
  const index = contract.versions.indexOf(version);
  return index > 0 ? contract.versions[index - 1] : undefined;
};

/** Replays `version.changes` on its parent. `resolve` already accepted them, so a report is a bug in treaty. */
export const replayChanges = (parent: ResolvedVersion, version: ResolvedVersion): ReplayedChange[] => {
  let model: VersionModel = { fields: parent.fields, enums: parent.enums };
  return version.changes.map((change) => {
    const after = applyChange(
      (code) => {
        throw new Error(`treaty bug: replaying ${change.op} of ${version.version} reported ${code}`);
      },
      version.version,
      model,
      change,
    );
    if (!after) throw new Error(`treaty bug: replaying ${change.op} of ${version.version} failed`);
    const replayed = { change, before: model, after };
    model = after;
    return replayed;
  });
};
