// Recursive named types: which types of a version reach themselves, and whether a cycle has a
// finite value. Every stage that follows named references memoizes by type name; validators bound
// how deep a value of a recursive type may nest (`maxDepth`, `DEFAULT_MAX_DEPTH`).
import type { NamedType, ResolvedVersion, TypeNode } from "./model.js";

/** How many values of recursive types may enclose one another in a payload, unless the type says `maxDepth:`. */
export const DEFAULT_MAX_DEPTH = 64;

/** A named type reached from a type, and whether the way there must be taken (no finite value ends it). */
interface Reference {
  readonly name: string;
  readonly required: boolean;
}

/**
 * The named types `type` refers to, each marked `required` when every value of `type` holds one:
 * an optional or nullable field, a list that may be empty and a map can end the nesting instead.
 * A new kind that can end (an untagged union) is one case here.
 */
export const namedReferences = (type: TypeNode, required = true): Reference[] => {
  switch (type.kind) {
    case "named":
      return [{ name: type.name, required }];
    case "list":
      return namedReferences(type.of, required && (type.minItems ?? 0) > 0);
    case "map":
      return namedReferences(type.of, false);
    case "object":
      return type.fields.flatMap((f) => namedReferences(f.type, required && !f.optional && f.nullable === undefined));
    case "union":
      // A variant may be chosen: the union must hold a named type only if every variant does, which
      // this does not track, so a union always ends a cycle unless all its variants are that type.
      return type.variants.flatMap((v) => namedReferences(v.type, required && type.variants.length === 1));
    default:
      return [];
  }
};

const fieldReferences = (named: NamedType | undefined): Reference[] =>
  named?.fields.flatMap((f) => namedReferences(f.type, !f.optional && f.nullable === undefined)) ?? [];

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

/** A cycle from `name` back to itself through required references only: a type with no finite value. */
export const infiniteCycle = (version: ResolvedVersion, name: string): string[] | undefined =>
  cycleThrough(name, (n) => fieldReferences(version.types.get(n)).filter((r) => r.required).map((r) => r.name));

/** The depth bound of a recursive named type. */
export const maxDepthOf = (named: NamedType): number => named.maxDepth ?? DEFAULT_MAX_DEPTH;
