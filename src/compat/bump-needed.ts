import type { Bump, Difference, Direction } from "./difference.js";

/**
 * The bump a set of differences needs: major when one breaks a direction the contract promises
 * (see `compatibility`), minor for any other difference that is not documentation, none otherwise.
 */
export const bumpNeeded = (differences: readonly Difference[], promised: readonly Direction[]): Bump => {
  if (differences.some((d) => promised.some((direction) => d[direction] === "breaking"))) return "major";
  return differences.some((d) => d.kind !== "description-changed") ? "minor" : "none";
};
