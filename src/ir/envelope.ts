import type { Contract, Field, ResolvedVersion } from "./model.js";

/**
 * The fields of a payload at `version`, envelope first: unless the contract says `envelope: none`,
 * every payload carries `contract` and `version` as constants. Every emitter reads fields through
 * this so the envelope is defined once.
 */
export const rootFields = (contract: Contract, version: ResolvedVersion): readonly Field[] => {
  if (contract.envelope === "none") return version.fields;
  const loc = version.loc;
  const envelope: Field[] = [
    {
      name: "contract",
      type: { kind: "const", value: contract.name },
      optional: false,
      description: "The contract this payload follows.",
      loc,
    },
    {
      name: "version",
      type: { kind: "const", value: version.version },
      optional: false,
      description: "The contract version this payload follows.",
      loc,
    },
  ];
  return [...envelope, ...version.fields];
};
