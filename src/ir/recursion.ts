// Recursive named types: which types of a version reach themselves, and whether a cycle has a
// finite value. Every stage that follows named references memoizes by type name; validators bound
// how deep a value of a recursive type may nest (`maxDepth`, `DEFAULT_MAX_DEPTH`).
import type { Field, NamedType, ResolvedVersion, TypeNode, UnionVariant } from "./model.js";

/** How many values of recursive types may enclose one another in a payload, unless the type says `maxDepth:`. */
export const DEFAULT_MAX_DEPTH = 64;

/** A named type reached from a type, and whether the way there is one a value must take (no optional field, no empty list on it). */
interface Reference {
  readonly name: string;
  readonly required: boolean;
}

/** The named types `type` refers to, each marked `required` when no optional or nullable field, empty list or map is on the way. */
const namedReferences = (type: TypeNode, required = true): Reference[] => {
  switch (type.kind) {
    case "named":
      return [{ name: type.name, required }];
    case "list":
      return namedReferences(type.of, required && (type.minItems ?? 0) > 0);
    case "map":
      return namedReferences(type.of, false);
    case "tuple":
      return type.items.flatMap((item) => namedReferences(item, required));
    case "object":
      return [
        ...type.fields.flatMap((f) => namedReferences(f.type, required && !f.optional && f.nullable === undefined)),
        ...(type.additional ? namedReferences(type.additional, false) : []),
      ];
    case "oneOf":
    case "union":
      // Each variant may be the one chosen: a cycle through a variant is a way round (finiteTypes decides whether another ends it).
      return type.variants.flatMap((v) => namedReferences(v.type, required));
    default:
      return [];
  }
};

// A kept key's value (`additional`) is never required: an object may have no unknown keys.
const fieldReferences = (named: NamedType | undefined): Reference[] => [
  ...(named?.fields.flatMap((f) => namedReferences(f.type, !f.optional && f.nullable === undefined)) ?? []),
  ...(named?.additional ? namedReferences(named.additional, false) : []),
];

/**
 * Whether `type` has a finite value when the named types in `finite` do: an optional or nullable
 * field, a list that may be empty and a map can end the nesting; a union ends when one of its
 * variants does. A new kind that can end (an untagged union) is one case here.
 */
const canEnd = (type: TypeNode, finite: ReadonlySet<string>): boolean => {
  switch (type.kind) {
    case "named":
      return finite.has(type.name);
    case "list":
      return (type.minItems ?? 0) === 0 || canEnd(type.of, finite);
    case "map":
      return true;
    case "tuple":
      return type.items.every((item) => canEnd(item, finite));
    case "object":
      return fieldsCanEnd(type.fields, finite);
    case "union":
    case "oneOf":
      return type.variants.some((v) => canEnd(v.type, finite));
    default:
      return true;
  }
};

const fieldsCanEnd = (fields: readonly Field[], finite: ReadonlySet<string>): boolean =>
  fields.every((f) => f.optional || f.nullable !== undefined || canEnd(f.type, finite));

/** The names of the version's named types that have a finite value (least fixpoint: a type ends once the types it needs do). */
const finiteTypes = (version: ResolvedVersion): ReadonlySet<string> => {
  const finite = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const named of version.types.values()) {
      if (!finite.has(named.name) && fieldsCanEnd(named.fields, finite)) {
        finite.add(named.name);
        grew = true;
      }
    }
  }
  return finite;
};

/** A path from `start` back to itself along `next`, if there is one. */
export const cycleThrough = (start: string, next: (node: string) => readonly string[]): string[] | undefined => {
  const stack: string[][] = [[start]];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const trail = stack.pop()!;
    for (const node of next(trail[trail.length - 1]!)) {
      if (node === start) return [...trail, node];
      if (!seen.has(node)) {
        seen.add(node);
        stack.push([...trail, node]);
      }
    }
  }
  return undefined;
};

/** The names of the version's named types that reach themselves (directly or through others). */
export const recursiveTypes = (version: ResolvedVersion): ReadonlySet<string> => {
  const next = (name: string): string[] => fieldReferences(version.types.get(name)).map((r) => r.name);
  return new Set([...version.types.keys()].filter((name) => cycleThrough(name, next) !== undefined));
};

/** A named type no finite value fills: its cycle back to itself, and the fields that hold it there. */
export interface InfiniteType {
  readonly cycle: readonly string[];
  /** Its required, not nullable fields no finite value can fill: made optional, they end the cycle. */
  readonly fields: readonly string[];
}

/**
 * The named types with no finite value that are on a cycle of such types, each with its cycle back
 * to itself (each type required where it is, through any variant of a union).
 */
export const infiniteCycles = (version: ResolvedVersion): ReadonlyMap<string, InfiniteType> => {
  const finite = finiteTypes(version);
  const next = (n: string): string[] => fieldReferences(version.types.get(n)).filter((r) => r.required && !finite.has(r.name)).map((r) => r.name);
  const cycles = new Map<string, InfiniteType>();
  for (const named of version.types.values()) {
    const cycle = finite.has(named.name) ? undefined : cycleThrough(named.name, next);
    if (!cycle) continue;
    const fields = named.fields.filter((f) => !f.optional && f.nullable === undefined && !canEnd(f.type, finite)).map((f) => f.name);
    cycles.set(named.name, { cycle, fields });
  }
  return cycles;
};

/** The depth bound of a recursive named type. */
export const maxDepthOf = (named: NamedType): number => named.maxDepth ?? DEFAULT_MAX_DEPTH;

/**
 * Union variants that are recursive named types. Emitters write a named variant inline, with its
 * tag, so one that contains itself would be written without end: not supported yet.
 */
export const recursiveVariants = (version: ResolvedVersion): UnionVariant[] => {
  const recursive = recursiveTypes(version);
  const found: UnionVariant[] = [];
  const visit = (type: TypeNode): void => {
    if (type.kind === "list" || type.kind === "map") visit(type.of);
    else if (type.kind === "tuple") type.items.forEach(visit);
    else if (type.kind === "oneOf") type.variants.forEach((v) => visit(v.type));
    else if (type.kind === "object") {
      type.fields.forEach((f) => visit(f.type));
      if (type.additional) visit(type.additional);
    } else if (type.kind === "union") {
      for (const variant of type.variants) {
        if (variant.type.kind === "named" && recursive.has(variant.type.name)) found.push(variant);
        else visit(variant.type);
      }
    }
  };
  version.fields.forEach((f) => visit(f.type));
  for (const named of version.types.values()) named.fields.forEach((f) => visit(f.type));
  return found;
};
