// How far the contract bounds the walk of a version's `check` and `errors` over a JS value. A JS
// value may share objects: a container whose entries are all one shared child is walked once per
// entry, so a map whose K keys hold one map, nested d levels, is K^d values walked from d·K
// references. A walk is linear in the payload's references when every container the contract
// leaves unbounded (a map, a list without maxItems, an object's kept unknown keys) holds values of
// bounded size: each of its entries then costs at most that size. Where one unbounded container
// sits inside another, nothing bounds the walk, and the validators count it (validator-compiler.ts).
import { rootFields } from "./envelope.js";
import type { Contract, Field, Project, ResolvedVersion, TypeNode } from "./model.js";
import { versionsOfMajor } from "./names.js";
import { objectPolicy, type ObjectPolicy } from "./open-objects.js";
import { recursiveTypes } from "./recursion.js";

interface Bound {
  /** The most values a walk of one value of the type visits; Infinity when it holds an unbounded container. */
  readonly size: number;
  /** The most values a walk visits per reference the value holds (sharing included); Infinity when unbounded. */
  readonly spread: number;
}

const LEAF: Bound = { size: 1, spread: 1 };
/** A value of a recursive type, whose validators count it themselves: it costs its container's walk nothing. */
const COUNTED: Bound = { size: 0, spread: 0 };
const UNBOUNDED: Bound = { size: Infinity, spread: Infinity };

/** One container of at most `most` entries (Infinity: unbounded), each a value bounded by `entry`. */
const container = (most: number, entry: Bound): Bound =>
  entry.size === 0
    ? { size: 1, spread: 1 }
    : {
        size: 1 + most * entry.size,
        // Entries of bounded size cost that much each; else one shared entry is walked `most` times.
        spread: 1 + Math.min(entry.size, most * entry.spread),
      };

/** Several values side by side (an object's fields, a tuple's items, each version of a contract reference). */
const together = (parts: readonly Bound[]): Bound => ({
  size: 1 + parts.reduce((n, p) => n + p.size, 0),
  spread: 1 + parts.reduce((n, p) => n + p.spread, 0),
});

/** One of several (a union's variants). */
const either = (parts: readonly Bound[]): Bound => ({
  // Folded, not spread into Math.max: a call's arguments are bounded by the stack.
  size: parts.reduce((n, p) => Math.max(n, p.size), 1),
  spread: parts.reduce((n, p) => Math.max(n, p.spread), 1),
});

/**
 * How many values the walk of a payload of `version` visits per reference the payload holds, at
 * most (`spread`: the walk's cost as a multiple of the value's own size). Finite when no unbounded
 * container holds another. A value of a recursive type costs nothing (its validators count each
 * one) where what each holds besides other such values is of bounded size, and is unbounded
 * otherwise (a node's map of strings, shared by a million nodes). A `json` value and a kept unknown
 * key's JSON data count as one value (walked by the runtime's own bounded walk).
 */
export const walkSpread = (
  project: Project,
  contract: Contract,
  version: ResolvedVersion,
  /** The recursive types of a version: a caller that already works them out passes its own (the validator compiler does). */
  recursiveOf: (version: ResolvedVersion) => ReadonlySet<string> = recursiveTypes,
): number => {
  // Contract references in progress: a contract reaching itself is unbounded.
  const entered = new Set<string>();
  // Each version once, however many references reach it.
  const versions = new Map<ResolvedVersion, Bound>();
  const ofVersion = (c: Contract, v: ResolvedVersion): Bound => {
    const known = versions.get(v);
    if (known) return known;
    const recursive = recursiveOf(v);
    const named = new Map<string, Bound>();
    // Whether every recursive type's fields, other such values aside, are of bounded size.
    let nodes: Bound | undefined;
    const ofNodes = (): Bound => {
      if (nodes) return nodes;
      nodes = COUNTED; // while its fields are measured, a value of a recursive type costs nothing
      const bounded = [...recursive].every((name) => {
        const t = v.types.get(name);
        return t === undefined || ofFields(t.fields, objectPolicy(c, t)).size < Infinity;
      });
      nodes = bounded ? COUNTED : UNBOUNDED;
      return nodes;
    };
    const ofFields = (fields: readonly Field[], policy: ObjectPolicy): Bound => {
      const parts = fields.map((f) => of(f.type));
      if (policy.unknownFields === "keep") parts.push(container(Infinity, policy.additional ? of(policy.additional) : LEAF));
      return together(parts);
    };
    const of = (type: TypeNode): Bound => {
      switch (type.kind) {
        case "list":
          return container(type.maxItems ?? Infinity, of(type.of));
        case "map":
          return container(Infinity, of(type.of));
        case "tuple":
          return together(type.items.map(of));
        case "object":
          return ofFields(type.fields, objectPolicy(c, type));
        case "union":
        case "oneOf":
          return either(type.variants.map((variant) => of(variant.type)));
        case "named": {
          if (recursive.has(type.name)) return ofNodes();
          const known = named.get(type.name);
          if (known) return known;
          const t = v.types.get(type.name);
          const bound = t ? ofFields(t.fields, objectPolicy(c, t)) : LEAF;
          named.set(type.name, bound);
          return bound;
        }
        case "contract": {
          const key = `${type.contract}@${type.major}`;
          const target = project.contracts.find((x) => x.name === type.contract);
          if (!target || entered.has(key)) return { size: Infinity, spread: Infinity };
          entered.add(key);
          try {
            // Its errors walk every version of the major.
            return together(versionsOfMajor(target, type.major).map((tv) => ofVersion(target, tv)));
          } finally {
            entered.delete(key);
          }
        }
        default:
          return LEAF;
      }
    };
    const bound = ofFields(rootFields(c, v), objectPolicy(c));
    versions.set(v, bound);
    return bound;
  };
  return ofVersion(contract, version).spread;
};
