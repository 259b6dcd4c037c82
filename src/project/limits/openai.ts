import type { ProviderLimits } from "../model.js";

// OpenAI Structured Outputs, strict mode (`response_format` json_schema and strict function tools).
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
// https://platform.openai.com/docs/guides/structured-outputs#all-fields-must-be-required
// https://platform.openai.com/docs/guides/structured-outputs#additionalproperties-false-must-always-be-set-in-objects
// https://platform.openai.com/docs/api-reference/chat/create#chat-create-response_format (name)
// openai-node's `toStrictJsonSchema` (openai/lib/transform) rejects the same unsupported keywords.
export const OPENAI_LIMITS: ProviderLimits = {
  provider: "openai",
  name: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: "^[a-zA-Z0-9_-]{1,64}$" },
  allRequired: true,
  closedObjects: true,
  const: true,
  enumMeanings: "anyOf",
  // Supported: string pattern and format; numbers' bounds and multipleOf; arrays' minItems/maxItems.
  // Not supported: minLength/maxLength (not in the list), uniqueItems (rejected).
  keywords: new Set(["pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "maxItems"]),
  maxMinItems: Number.POSITIVE_INFINITY,
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]),
  maxDepth: 10,
  maxProperties: 5_000,
  maxSchemaChars: 120_000,
  maxEnumValues: 1_000,
  largeEnum: { values: 250, chars: 15_000 },
};
