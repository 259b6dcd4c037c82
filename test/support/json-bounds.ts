// The bounds of an IDL `json` value (`x-treaty-json` in the emitted schema), which JSON Schema
// cannot state, as an Ajv keyword written independently of treaty's runtime: depth by recursion
// (the values it sees are small), bytes by serializing.
import type { Ajv2020 } from "ajv/dist/2020.js";

/** The deepest nesting of arrays and objects in `value`: 0 for a scalar. */
export const jsonDepth = (value: unknown): number =>
  typeof value === "object" && value !== null ? 1 + Math.max(0, ...Object.values(value).map(jsonDepth)) : 0;

/** Whether `value` is within `bounds`, and within the depth no json value may pass (64). */
export const withinJsonBounds = (bounds: { maxDepth?: number; maxBytes?: number }, value: unknown): boolean =>
  jsonDepth(value) <= Math.min(bounds.maxDepth ?? 64, 64) && (bounds.maxBytes === undefined || Buffer.byteLength(JSON.stringify(value), "utf8") <= bounds.maxBytes);

/** Ajv checks `x-treaty-json` bounds too. */
export const addJsonBounds = (ajv: Ajv2020): void => {
  ajv.addKeyword({ keyword: "x-treaty-json", schemaType: "object", validate: withinJsonBounds });
};
