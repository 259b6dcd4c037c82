// The bounds of an IDL `json` value (`x-treaty-json` in the emitted schema), which JSON Schema
// cannot state, as an Ajv keyword written independently of treaty's runtime: depth by recursion
// (a walk with its own stack: the fuzzer's payloads nest deeper than the call stack), bytes by serializing.
import type { Ajv2020 } from "ajv/dist/2020.js";

/** The deepest nesting of arrays and objects in `value`: 0 for a scalar. */
export const jsonDepth = (value: unknown): number => {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop()!;
    if (typeof next !== "object" || next === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(next)) pending.push([child, depth + 1]);
  }
  return deepest;
};

/** Whether `value` is within `bounds`, and within the depth no json value may pass (64). */
export const withinJsonBounds = (bounds: { maxDepth?: number; maxBytes?: number }, value: unknown): boolean =>
  jsonDepth(value) <= Math.min(bounds.maxDepth ?? 64, 64) && (bounds.maxBytes === undefined || Buffer.byteLength(JSON.stringify(value), "utf8") <= bounds.maxBytes);

/** Ajv checks `x-treaty-json` bounds too. */
export const addJsonBounds = (ajv: Ajv2020): void => {
  ajv.addKeyword({ keyword: "x-treaty-json", schemaType: "object", validate: withinJsonBounds });
};
