import type { Bump, Difference } from "./difference.js";

/**
 * The bump a set of differences needs: major when a reader on the new version may fail on old
 * data (backward-breaking), minor for any other difference that is not documentation, none otherwise.
 */
export const bumpNeeded = (differences: readonly Difference[]): Bump => {
  if (differences.some((d) => d.backward === "breaking")) return "major";
  return differences.some((d) => d.kind !== "description-changed") ? "minor" : "none";
};
