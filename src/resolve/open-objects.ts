// An object's `unknown_fields` and `additional` (on a named type or an inline `type: object`).
// `additional` implies `keep`: typed unknown keys are kept ones, so `additional` beside an
// explicit `reject` or `strip` is an error rather than a silent override.
import { UNKNOWN_FIELDS, type OpenObject, type TypeNode } from "../ir/model.js";
import type { Entry, Reader } from "./reader.js";

export const OPEN_OBJECT_KEYS = ["unknown_fields", "additional"] as const;

/** The policy the entries set (`{}` when neither is given); undefined after a reported error. */
export const parseOpenObject = (
  r: Reader,
  unknownEntry: Entry | undefined,
  additionalEntry: Entry | undefined,
  parseTypeSpec: (node: Entry["value"], where: string) => TypeNode | undefined,
): OpenObject | undefined => {
  const unknownFields = unknownEntry && r.oneOf(unknownEntry.value, "'unknown_fields'", UNKNOWN_FIELDS);
  if (unknownEntry && unknownFields === undefined) return undefined;
  if (!additionalEntry) return unknownFields === undefined ? {} : { unknownFields };
  if (unknownFields !== undefined && unknownFields !== "keep") {
    r.report("additional-needs-keep", additionalEntry.keyNode, { policy: unknownFields });
    return undefined;
  }
  const additional = parseTypeSpec(additionalEntry.value, "'additional'");
  return additional && { unknownFields: "keep", additional };
};
