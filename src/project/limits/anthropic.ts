import type { ProviderLimits } from "../model.js";

// Anthropic strict tool use (`tools[].strict: true`) and structured outputs.
// https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations
// https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use
// https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools (tool name rule)
// The docs allow "simple" patterns, but the SDK's `transformJSONSchema` (@anthropic-ai/sdk
// lib/transform-json-schema) moves every `pattern` into the description; treaty follows the SDK, so
// its output equals treaty's projection and the pattern is listed in the ledger instead.
export const ANTHROPIC_LIMITS: ProviderLimits = {
  provider: "anthropic",
  name: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: "^[a-zA-Z0-9_-]{1,64}$" },
  allRequired: false,
  closedObjects: true,
  const: true,
  enumMeanings: "anyOf",
  // No numeric bounds, no string lengths, minItems only 0 or 1, no maxItems, no uniqueItems.
  keywords: new Set(),
  maxMinItems: 1,
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]),
};

/**
 * Limits over all strict tools of one request, which no single schema can check
 * (the same page, "Schema complexity limits"); see `checkRequestBudget`.
 */
export const ANTHROPIC_REQUEST_BUDGET = {
  strictTools: 20,
  optionalParameters: 24,
  unionParameters: 16,
} as const;
