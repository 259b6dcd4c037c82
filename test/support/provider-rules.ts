// The providers' documented schema rules, written from their docs independently of treaty's
// limits tables (src/project/limits/): a projection breaking one is reported with its pointer.
// OpenAI: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
// Anthropic: https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations
// Gemini: https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support
type Schema = Record<string, unknown>;

const ANNOTATIONS = ["description", "title"];
const SUPPORTED: Record<string, readonly string[]> = {
  openai: [...ANNOTATIONS, "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "$defs", "$ref"],
  anthropic: [...ANNOTATIONS, "type", "properties", "required", "additionalProperties", "items", "anyOf", "allOf", "enum", "const", "format", "minItems", "$defs", "$ref"],
  gemini: [...ANNOTATIONS, "type", "properties", "required", "additionalProperties", "items", "prefixItems", "anyOf", "oneOf", "enum", "format", "minimum", "maximum", "minItems", "maxItems", "$defs", "$ref", "$id", "$anchor"],
};
const FORMATS: Record<string, readonly string[]> = {
  openai: ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"],
  anthropic: ["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"],
  gemini: ["date-time", "date", "time"],
};

/** Every breach of `provider`'s documented rules in `schema`, as `pointer: what`. */
export const documentedBreaches = (provider: "openai" | "anthropic" | "gemini", root: Schema): string[] => {
  const out: string[] = [];
  if (root["type"] !== "object") out.push("/: root is not an object");
  if (provider === "openai" && "anyOf" in root) out.push("/: root is a union");
  const visit = (s: Schema, at: string): void => {
    for (const key of Object.keys(s)) if (!SUPPORTED[provider]!.includes(key)) out.push(`${at}: keyword ${key}`);
    if (typeof s["format"] === "string" && !FORMATS[provider]!.includes(s["format"])) out.push(`${at}: format ${s["format"]}`);
    if (provider === "anthropic" && typeof s["minItems"] === "number" && s["minItems"] > 1) out.push(`${at}: minItems ${s["minItems"]}`);
    const properties = (s["properties"] as Record<string, Schema> | undefined) ?? {};
    if (s["type"] === "object" && provider !== "gemini") {
      if (s["additionalProperties"] !== false) out.push(`${at}: object not closed`);
    }
    if (s["type"] === "object" && provider === "openai") {
      const required = (s["required"] as string[] | undefined) ?? [];
      for (const name of Object.keys(properties)) if (!required.includes(name)) out.push(`${at}/${name}: not required`);
    }
    for (const [name, p] of Object.entries(properties)) visit(p, `${at}/${name}`);
    if (typeof s["items"] === "object") visit(s["items"] as Schema, `${at}/items`);
    if (typeof s["additionalProperties"] === "object") visit(s["additionalProperties"] as Schema, `${at}/additionalProperties`);
    for (const [i, v] of ((s["anyOf"] as Schema[] | undefined) ?? []).entries()) visit(v, `${at}/anyOf/${i}`);
  };
  visit(root, "");
  return out;
};
