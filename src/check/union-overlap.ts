// Untagged unions whose variants the compiler cannot prove disjoint (see ir/one-of-variants.ts).
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { Contract, Field, ResolvedVersion, TypeNode } from "../ir/model.js";
import { distinguishVariants, variantLabel } from "../ir/one-of-variants.js";

/** A `union-overlap` at the later variant of each pair no test separates, in the version's fields and named types (tuple items and `additional` types included). */
export const findUnionOverlaps = (contract: Contract, version: ResolvedVersion): Diagnostic[] => {
  const diagnostics: Diagnostic[] = [];
  const visit = (type: TypeNode): void => {
    switch (type.kind) {
      case "list":
      case "map":
        return visit(type.of);
      case "tuple":
        return type.items.forEach(visit);
      case "object":
        visitFields(type.fields);
        if (type.additional) visit(type.additional);
        return;
      case "union":
        return type.variants.forEach((v) => visit(v.type));
      case "oneOf":
        type.variants.forEach((v) => visit(v.type));
        for (const overlap of distinguishVariants(type, version, contract).overlaps) {
          diagnostics.push(
            createDiagnostic("union-overlap", type.variants[overlap.second]!.loc, {
              first: variantLabel(type, overlap.first),
              second: variantLabel(type, overlap.second),
              why: overlap.why,
            }),
          );
        }
        return;
      default:
        return;
    }
  };
  const visitFields = (fields: readonly Field[]): void => fields.forEach((f) => visit(f.type));
  visitFields(version.fields);
  for (const named of version.types.values()) {
    visitFields(named.fields);
    if (named.additional) visit(named.additional);
  }
  return diagnostics;
};
