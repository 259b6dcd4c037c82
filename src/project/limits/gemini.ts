import type { ProviderLimits } from "../model.js";

// Gemini structured output with `responseJsonSchema` (generationConfig), the JSON Schema path.
// https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support
// Supported keywords: $id, $defs, $ref, $anchor, type, format, title, description, enum, items,
// prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf (as anyOf), properties,
// additionalProperties, required. No `const`, so enum meanings go into the description.
export const GEMINI_LIMITS: ProviderLimits = {
  provider: "gemini",
  allRequired: false,
  closedObjects: false,
  const: false,
  enumMeanings: "description",
  keywords: new Set(["minimum", "maximum", "maxItems", "prefixItems"]),
  maxMinItems: Number.POSITIVE_INFINITY,
  formats: new Set(["date-time", "date", "time"]),
};
