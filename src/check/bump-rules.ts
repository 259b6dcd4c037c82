// A MINOR version must be readable as a superset of every earlier version of its major (checked
// pairwise: compatibility is not transitive); forward breaks within a major are warnings that
// name the readers that will fail.
import { versionDifferences } from "../compat/version-differences.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { Contract, SourceLocation } from "../ir/model.js";

const where = (loc: SourceLocation | undefined): string => (loc ? `${loc.file}:${loc.line}:${loc.col}` : "no location");

export const bumpRules = (contract: Contract): Diagnostic[] => {
  const diagnostics: Diagnostic[] = [];
  contract.versions.forEach((version, index) => {
    for (const older of contract.versions.slice(0, index)) {
      if (older.major !== version.major) continue;
      for (const d of versionDifferences(contract, older, version)) {
        const params = { version: version.version, older: older.version, reason: d.reason, where: where(d.loc), major: version.major + 1 };
        if (d.backward === "breaking") diagnostics.push(createDiagnostic("bump-too-small", version.loc, params));
        if (d.forward === "breaking") diagnostics.push(createDiagnostic("forward-incompatible", version.loc, params));
      }
    }
  });
  return diagnostics;
};
