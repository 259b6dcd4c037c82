// The referees of an LLM projection (a provider's request fragment, as llm.ts exports it and
// llm/<provider>.json holds it): openai-node's strict transform and the Anthropic SDK's schema
// transform must change nothing, the providers' documented rules hold, and an MCP tool validates
// against `Tool` of the MCP 2025-11-25 schema.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { transformJSONSchema } from "@anthropic-ai/sdk/lib/transform-json-schema";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { toStrictJsonSchema } from "openai/lib/transform";
import { expect } from "vitest";
import type { LlmProvider } from "../../src/ir/model.js";
import { documentedBreaches } from "./provider-rules.js";
import { schemaOf } from "./provider-writer.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const MCP = JSON.parse(readFileSync(join(import.meta.dirname, "../reference/agent-protocols/mcp/schema-2025-11-25.json"), "utf8")) as object;

type Schema = Record<string, unknown>;

/** Fails the test unless every referee of `provider` accepts the projection. */
export const expectRefereesAccept = (provider: LlmProvider, projection: Record<string, any>): void => {
  const schema = schemaOf(provider, projection);
  if (provider === "openai") {
    expect(toStrictJsonSchema(schema)).toEqual(schema);
    expect(projection.tool.function.parameters).toEqual(schema);
  }
  if (provider === "anthropic") expect(transformJSONSchema(schema)).toEqual(schema);
  if (provider !== "mcp") expect(documentedBreaches(provider, schema)).toEqual([]);
  for (const name of [projection.response_format?.json_schema.name, projection.tool?.name, projection.tool?.function?.name]) {
    if (name !== undefined) expect(name).toMatch(provider === "mcp" ? /^[A-Za-z0-9_.-]{1,128}$/ : /^[a-zA-Z0-9_-]{1,64}$/);
  }
  if (provider === "mcp") {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(MCP, "mcp");
    const tool = ajv.getSchema("mcp#/$defs/Tool")!;
    expect(tool(projection.tool), JSON.stringify(tool.errors)).toBe(true);
  }
};
