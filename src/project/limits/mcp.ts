import { STRING_FORMATS } from "../../ir/model.js";
import type { ProviderLimits } from "../model.js";

// MCP 2025-11-25 `Tool` (tools/list): `inputSchema` is a JSON Schema object (2020-12 by default)
// with `type: "object"` at its root, so every keyword treaty's types use is kept, `$defs` and `$ref` too.
// https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
// https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names
export const MCP_LIMITS: ProviderLimits = {
  provider: "mcp",
  name: { pattern: /^[A-Za-z0-9_.-]{1,128}$/, rule: "^[A-Za-z0-9_.-]{1,128}$" },
  allRequired: false,
  closedObjects: false,
  const: true,
  enumMeanings: "anyOf",
  keywords: new Set(["minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "maxItems", "uniqueItems", "propertyNames", "prefixItems"]),
  maxMinItems: Number.POSITIVE_INFINITY,
  // Any format: a tool's inputSchema is a JSON Schema its server checks.
  formats: new Set(STRING_FORMATS),
  // A JSON Schema like any other: a recursive type goes in `$defs`, referred to by `$ref`.
  recursiveDefs: true,
};
