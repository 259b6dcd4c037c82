// The generated test of a recursive type's depth bound: a value nested one level past what the
// validators allow, built from minimal values of the types on the way round, and the pointer of
// the value that fails with `depth`.
import type { JsonValue, ResolvedVersion, TypeNode } from "../ir/model.js";
import { maxDepthOf } from "../ir/recursion.js";
import { escapePointer } from "../runtime/issue.js";
import { putKey } from "../runtime/snapshot.js";

/** One way from a named type to another: its field holds it, or holds a list or map of it. */
interface Step {
  readonly field: string;
  readonly via: "field" | "item" | "value";
  readonly to: string;
}

const stepTo = (field: string, type: TypeNode): Step | undefined => {
  if (type.kind === "named") return { field, via: "field", to: type.name };
  if (type.kind === "list" && type.of.kind === "named" && (type.maxItems ?? 1) >= 1) return { field, via: "item", to: type.of.name };
  if (type.kind === "map" && type.of.kind === "named") return { field, via: "value", to: type.of.name };
  return undefined;
};

/** The shortest way round from `start` back to itself through fields of named types, if any. */
const wayRound = (version: ResolvedVersion, start: string): Step[] | undefined => {
  const queue: { name: string; steps: Step[] }[] = [{ name: start, steps: [] }];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const { name, steps } = queue.shift()!;
    for (const field of version.types.get(name)?.fields ?? []) {
      const step = stepTo(field.name, field.type);
      if (!step) continue;
      if (step.to === start) return [...steps, step];
      if (!seen.has(step.to)) {
        seen.add(step.to);
        queue.push({ name: step.to, steps: [...steps, step] });
      }
    }
  }
  return undefined;
};

const KEY = "key";

/**
 * A value of the recursive type `name` (at the top of the payload's recursion: nothing recursive
 * encloses it) that nests round until a value sits deeper than its type allows, and the pointer of
 * that value below the value's own. `minimal` makes a minimal valid value of a named type.
 */
export const tooDeep = (
  version: ResolvedVersion,
  name: string,
  minimal: (name: string) => JsonValue | undefined,
): { readonly value: JsonValue; readonly pointer: string } | undefined => {
  const steps = wayRound(version, name);
  if (!steps) return undefined;
  // The chain of values from the outside in: the i-th is enclosed by i values of recursive types.
  const chain: { type: string; step?: Step }[] = [{ type: name }];
  for (let i = 0; i < chain.length; i++) {
    const { type } = chain[i]!;
    if (i >= maxDepthOf(version.types.get(type)!)) break;
    const step = steps[i % steps.length]!;
    chain[i]!.step = step;
    chain.push({ type: step.to });
  }
  let value: JsonValue | undefined;
  let pointer = "";
  for (const { type, step } of [...chain].reverse()) {
    const made = minimal(type);
    if (made === null || typeof made !== "object" || Array.isArray(made)) return undefined;
    if (step) {
      putKey(made, step.field, step.via === "field" ? value! : step.via === "item" ? [value!] : { [KEY]: value! });
      pointer = `/${escapePointer(step.field)}${step.via === "item" ? "/0" : step.via === "value" ? `/${KEY}` : ""}${pointer}`;
    }
    value = made;
  }
  return { value: value!, pointer };
};
