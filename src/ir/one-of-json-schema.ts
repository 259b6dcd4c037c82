// JSON Schema branches as the untagged-union proof (ir/one-of-variants.ts) sees them: the atoms of
// `type`, `const`, `enum` and `pattern`, and an object's required and declared properties. `import` proves a
// source's `oneOf`/`anyOf` disjoint with them; the projections prove a union's variants still
// disjoint as a provider is told to write them.
import type { Atom, Described, Primitive, Sort } from "./one-of-variants.js";
import { sortOfValue } from "./one-of-variants.js";

type Schema = Record<string, unknown>;

export const ALL_SORTS: readonly Sort[] = ["string", "integer", "fraction", "boolean", "null", "array", "object"];

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

export const isPrimitive = (value: unknown): value is Primitive => value === null || ["string", "number", "boolean"].includes(typeof value);

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
  const named = types.flatMap((t) => (typeof t === "string" && Object.hasOwn(SORTS_OF_TYPE, t) ? SORTS_OF_TYPE[t]! : []));
  const sorts = new Set<Sort>([...named, ...(schema["nullable"] === true ? (["null"] as Sort[]) : [])]);
  const pattern = stringPattern(schema["pattern"]);
  return pattern === undefined ? { sorts } : { sorts, pattern };
};

/** A `pattern` the proof can read: a valid regex with the `u` flag (any other is left to whoever reports it). */
const stringPattern = (pattern: unknown): string | undefined => {
  if (typeof pattern !== "string") return undefined;
  try {
    new RegExp(pattern, "u");
    return pattern;
  } catch {
    return undefined;
  }
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
