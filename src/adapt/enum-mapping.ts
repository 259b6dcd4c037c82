// Where each value of an enum goes in one direction of a step: through the declared `map`, to a
// fallback when a value is gone, or nowhere (then a stub or the target's validator decides).
import type { ResolvedVersion } from "../ir/model.js";
import type { Direction } from "./model.js";
import type { ReplayedChange } from "./replay.js";

const hasValue = (version: Pick<ResolvedVersion, "enums">, name: string, value: string): boolean =>
  version.enums.get(name)?.values.some((v) => v.name === value) === true;

type Move = (value: string) => string | undefined;

/** Up through one enum change: mapped values follow the map, removed ones go to the fallback. */
const upThrough = (name: string, { change, after }: ReplayedChange): Move => (value) => {
  if (change.op !== "enum") return value;
  if (Object.hasOwn(change.map, value)) return change.map[value];
  return change.remove.includes(value) ? after.enums.get(name)?.fallback : value;
};

/** Down through one enum change: values it added go back to what the map carried over, or the fallback. */
const downThrough = (name: string, { change, before }: ReplayedChange): Move => (value) => {
  if (change.op !== "enum" || hasValue(before, name, value)) return value;
  const origin = Object.keys(change.map).find((old) => change.map[old] === value && hasValue(before, name, old));
  return origin ?? before.enums.get(name)?.fallback;
};

/**
 * Source value → target value (undefined: it has none) for enum `name`, in `direction` across
 * `changes` (the step's declared changes; none for a version that re-lists its fields).
 */
export const mapEnumValues = (
  name: string,
  source: ResolvedVersion,
  target: ResolvedVersion,
  changes: readonly ReplayedChange[],
  direction: Direction,
): ReadonlyMap<string, string | undefined> => {
  const relevant = changes.filter((c) => c.change.op === "enum" && c.change.name === name);
  const moves = direction === "up" ? relevant.map((c) => upThrough(name, c)) : [...relevant].reverse().map((c) => downThrough(name, c));
  const mapping = new Map<string, string | undefined>();
  for (const { name: value } of source.enums.get(name)?.values ?? []) {
    let current: string | undefined = value;
    for (const move of moves) current = current === undefined ? undefined : move(current);
    if (current !== undefined && !hasValue(target, name, current)) current = target.enums.get(name)?.fallback;
    mapping.set(value, current);
  }
  return mapping;
};
