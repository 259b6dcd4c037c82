// JSON Schema branches as the untagged-union proof (ir/one-of-variants.ts) sees them: a union is
// imported only when its branches are provably disjoint, by JSON type, constants, or a required
// property of a type the other branch's property excludes. Objects count as open (the contract
// may strip unknown keys), so a missing property never separates two branches here. The proof
// runs twice: on the source's branches before they are converted, and on the variants as the
// conversion wrote them (what it left out or widened no longer tells them apart), so the import
// never writes a union `check` refuses.
import type { Atom, Described, Primitive, Sort } from "../ir/one-of-variants.js";
import { sortOfValue } from "../ir/one-of-variants.js";
import type { IdlField, IdlType } from "./convert.js";

type Schema = Record<string, unknown>;

const ALL_SORTS: readonly Sort[] = ["string", "integer", "fraction", "boolean", "null", "array", "object"];

const SORTS_OF_TYPE: Readonly<Record<string, readonly Sort[]>> = {
  string: ["string"],
  integer: ["integer"],
  number: ["integer", "fraction"],
  boolean: ["boolean"],
  null: ["null"],
  array: ["array"],
  object: ["object"],
};

const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

const isPrimitive = (value: unknown): value is Primitive => value === null || ["string", "number", "boolean"].includes(typeof value);

/**
 * Atoms by schema object, each worked out once: `$ref`s that share a definition (`anyOf: [{ $ref: D }, { $ref: D }]`
 * down a chain of definitions) made it exponential. A schema object belongs to one parsed document,
 * whose `$ref`s always resolve alike; one met again on a cycle counts as any value.
 */
const atoms = new WeakMap<Schema, Atom>();

/** `schema`'s atom: the sorts its `type` allows (all without one) and, with `const`/`enum`, its values. */
const atomOf = (schema: unknown, resolve: (ref: string) => unknown, seen: ReadonlySet<unknown> = new Set()): Atom => {
  if (!isSchema(schema) || seen.has(schema)) return { sorts: new Set(ALL_SORTS) };
  const known = atoms.get(schema);
  if (known) return known;
  const atom = schemaAtom(schema, resolve, new Set([...seen, schema]));
  atoms.set(schema, atom);
  return atom;
};

const schemaAtom = (schema: Schema, resolve: (ref: string) => unknown, inner: ReadonlySet<unknown>): Atom => {
  if (typeof schema["$ref"] === "string") return atomOf(resolve(schema["$ref"]), resolve, inner);
  if ("const" in schema) return isPrimitive(schema["const"]) ? { sorts: new Set([sortOfValue(schema["const"])]), values: [schema["const"]] } : { sorts: new Set(["array", "object"] as Sort[]) };
  if (Array.isArray(schema["enum"]) && schema["enum"].every(isPrimitive)) {
    const values = schema["enum"] as Primitive[];
    return { sorts: new Set(values.map(sortOfValue)), values };
  }
  for (const keyword of ["oneOf", "anyOf"]) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) return { sorts: new Set(branches.flatMap((b) => [...atomOf(b, resolve, inner).sorts])) };
  }
  const types = Array.isArray(schema["type"]) ? schema["type"] : schema["type"] === undefined ? undefined : [schema["type"]];
  // Without a type, keywords about objects (`properties`) let every other value through: the sorts are the allOf parts' in common.
  if (types === undefined) {
    // Each part described once (per sort, nested allOfs took 7^depth).
    const parts = (Array.isArray(schema["allOf"]) ? schema["allOf"] : []).map((part) => atomOf(part, resolve, inner).sorts);
    return { sorts: new Set(ALL_SORTS.filter((sort) => parts.every((part) => part.has(sort)))) };
  }
  // A type the table does not hold (`constructor` too, which the prototype would answer) is of no sort;
  // `nullable: true` (OpenAPI 3.0's, which Ajv reads everywhere) adds null.
  const named = types.flatMap((t) => (Object.hasOwn(SORTS_OF_TYPE, String(t)) ? SORTS_OF_TYPE[String(t)]! : []));
  return { sorts: new Set<Sort>([...named, ...(schema["nullable"] === true ? (["null"] as Sort[]) : [])]) };
};

/**
 * A branch of a `oneOf`/`anyOf`, described with its required and declared properties when it is an
 * object; `closed` reads `additionalProperties: false` as rejecting other keys (a projection says
 * exactly what it accepts), where an import counts every object open.
 */
export const describeBranch = (schema: unknown, resolve: (ref: string) => unknown, options: { readonly closed?: boolean } = {}): Described => {
  const target = isSchema(schema) && typeof schema["$ref"] === "string" ? resolve(schema["$ref"]) : schema;
  const atom = atomOf(target, resolve);
  if (!isSchema(target) || !isSchema(target["properties"]) || [...atom.sorts].some((s) => s !== "object")) return atom;
  const required = new Set(Array.isArray(target["required"]) ? target["required"] : []);
  const properties = target["properties"];
  return {
    ...atom,
    fields: new Map(Object.keys(properties).map((name) => [name, { required: required.has(name), atom: atomOf(properties[name], resolve) }])),
    closed: options.closed === true && target["additionalProperties"] === false,
  };
};

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
  return withNull({ sorts: new Set(SORTS_OF_KIND[type.type]!) });
};
