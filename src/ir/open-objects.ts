// Which unknown-key policy an object follows: its own (`unknown_fields`, `additional` on a named or
// inline object type) or, absent, the contract's. Every stage asks here, so they cannot disagree.
import type { Contract, Field, OpenObject, ResolvedVersion, TypeNode, UnknownFields } from "./model.js";

export interface ObjectPolicy {
  readonly unknownFields: UnknownFields;
  /** `keep` only: the type of every unknown key's value. */
  readonly additional?: TypeNode;
}

/** The policy of an object (a named type, an inline object; none for a payload's root) in `contract`. */
export const objectPolicy = (contract: Pick<Contract, "unknownFields">, object?: OpenObject): ObjectPolicy => {
  const unknownFields = object?.unknownFields ?? contract.unknownFields;
  return object?.additional === undefined ? { unknownFields } : { unknownFields, additional: object.additional };
};

/**
 * Whether a payload of `version` may hold an object whose unknown keys decode strips: the root under
 * a contract-wide `strip`, or any object, named type or union variant that strips (another
 * contract's payload aside, which is that contract's to strip).
 */
export const stripsAny = (contract: Pick<Contract, "unknownFields">, version: ResolvedVersion): boolean => {
  const strips = (object?: OpenObject): boolean => objectPolicy(contract, object).unknownFields === "strip";
  const seen = new Set<string>();
  const inType = (type: TypeNode): boolean => {
    switch (type.kind) {
      case "object":
        return strips(type) || inFields(type.fields) || (type.additional !== undefined && inType(type.additional));
      case "named": {
        const named = version.types.get(type.name);
        if (!named || seen.has(type.name)) return false;
        seen.add(type.name);
        return strips(named) || inFields(named.fields) || (named.additional !== undefined && inType(named.additional));
      }
      case "list":
      case "map":
        return inType(type.of);
      case "tuple":
        return type.items.some(inType);
      case "union":
      case "oneOf":
        return type.variants.some((v) => inType(v.type));
      default:
        return false;
    }
  };
  const inFields = (fields: readonly Field[]): boolean => fields.some((f) => inType(f.type));
  return strips() || inFields(version.fields);
};
