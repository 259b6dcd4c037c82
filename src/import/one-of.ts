// JSON Schema branches as the untagged-union proof (ir/one-of-variants.ts) sees them: a union is
// imported only when its branches are provably disjoint, by JSON type, constants, or a required
// property of a type the other branch's property excludes. Objects count as open (the contract
// may strip unknown keys), so a missing property never separates two branches here. The proof
// runs twice: on the source's branches before they are converted, and on the variants as the
// conversion wrote them (what it left out or widened no longer tells them apart), so the import
// never writes a union `check` refuses. A source's branches are described by ir/one-of-json-schema.ts.
import { ALL_SORTS, isPrimitive } from "../ir/one-of-json-schema.js";
import type { Atom, Described, Sort } from "../ir/one-of-variants.js";
import { sortOfValue } from "../ir/one-of-variants.js";
import type { IdlField, IdlType } from "./convert.js";

/** The named types and enums a conversion has made so far, for `describeConverted`. */
export interface ConvertedNames {
  readonly enums: ReadonlyMap<string, { readonly values: Record<string, string> }>;
  readonly types: ReadonlyMap<string, { readonly fields: Record<string, IdlField> }>;
}

const SORTS_OF_KIND: Readonly<Record<string, readonly Sort[]>> = {
  string: ["string"],
  timestamp: ["string"],
  int: ["integer"],
  number: ["integer", "fraction"],
  bool: ["boolean"],
  list: ["array"],
  tuple: ["array"],
  map: ["object"],
  object: ["object"],
  json: ALL_SORTS,
};

const BUILT_IN: ReadonlySet<string> = new Set([...Object.keys(SORTS_OF_KIND), "const", "union"]);

/**
 * A converted type as `check` will describe it once written (ir/one-of-variants.ts): what the
 * conversion left out or widened is seen as written, not as the source said it. A field's own
 * type is described shallow, as there; a named type not converted yet (a recursion back into it)
 * is undefined: the caller keeps the source's description.
 */
export const describeConverted = (type: IdlType | string, nullable: boolean, names: ConvertedNames, shallow = false): Described | undefined => {
  const withNull = (d: Described): Described =>
    nullable ? { ...d, sorts: new Set([...d.sorts, "null" as const]), ...(d.values && { values: [...d.values, null] }) } : d;
  const objectOf = (fields: Record<string, IdlField>): Described | undefined => {
    if (shallow) return { sorts: new Set(["object"]) };
    const described = new Map<string, { required: boolean; atom: Atom }>();
    for (const [name, field] of Object.entries(fields)) {
      const atom = describeConverted(field, typeof field !== "string" && field["nullable"] !== undefined, names, true);
      if (atom === undefined) return undefined;
      described.set(name, { required: typeof field === "string" || field["optional"] !== true, atom });
    }
    return { sorts: new Set(["object"]), fields: described, closed: false };
  };
  // A named type or enum: its bare name, or a mapping (a field's, with its own keys) whose type is the name.
  if (typeof type === "string" || !BUILT_IN.has(type.type)) {
    const name = typeof type === "string" ? type : type.type;
    const enumType = names.enums.get(name);
    if (enumType) return withNull({ sorts: new Set(["string"]), values: Object.keys(enumType.values) });
    const named = names.types.get(name);
    const described = named ? objectOf(named.fields) : shallow ? { sorts: new Set<Sort>(["object"]) } : undefined;
    return described && withNull(described);
  }
  if (type.type === "const") return withNull(isPrimitive(type["value"]) ? { sorts: new Set([sortOfValue(type["value"])]), values: [type["value"]] } : { sorts: new Set(["array", "object"]) });
  if (type.type === "object") {
    const described = objectOf((type["fields"] as Record<string, IdlField> | undefined) ?? {});
    return described && withNull(described);
  }
  if (type.type === "union") {
    const variants = (type["variants"] as (IdlType | string)[]).map((v) => describeConverted(v, false, names, true));
    return variants.some((v) => v === undefined) ? undefined : withNull({ sorts: new Set(variants.flatMap((v) => [...v!.sorts])) });
  }
  const pattern = type.type === "string" && typeof type["pattern"] === "string" ? type["pattern"] : undefined;
  return withNull(pattern === undefined ? { sorts: new Set(SORTS_OF_KIND[type.type]!) } : { sorts: new Set(SORTS_OF_KIND[type.type]!), pattern });
};
