// Limits a provider puts on a whole request rather than on one schema: the caller hands over the
// tool set it is about to send. Compile checks each contract's tool alone (a tool over a budget by
// itself fits no request); only the caller knows which tools go together.
import { ANTHROPIC_REQUEST_BUDGET } from "./limits/anthropic.js";

/** An Anthropic tool as `llm.ts` exports it (or any tool of that shape). */
export interface AnthropicTool {
  readonly name: string;
  readonly input_schema: unknown;
  readonly strict?: boolean;
}

export interface BudgetBreach {
  readonly budget: keyof typeof ANTHROPIC_REQUEST_BUDGET;
  readonly max: number;
  readonly actual: number;
}

const isSchema = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Every property of every object in `schema`, with whether its object requires it. */
const properties = (schema: unknown): { readonly schema: Record<string, unknown>; readonly required: boolean }[] => {
  if (!isSchema(schema)) return [];
  const own = isSchema(schema["properties"]) ? Object.entries(schema["properties"]) : [];
  const required = Array.isArray(schema["required"]) ? schema["required"] : [];
  const nested = [
    ...own.map(([, value]) => value),
    schema["items"],
    schema["additionalProperties"],
    ...(Array.isArray(schema["anyOf"]) ? schema["anyOf"] : []),
    ...(Array.isArray(schema["prefixItems"]) ? schema["prefixItems"] : []),
    ...(isSchema(schema["$defs"]) ? Object.values(schema["$defs"]) : []),
  ];
  return [
    ...own.filter(([, value]) => isSchema(value)).map(([name, value]) => ({ schema: value as Record<string, unknown>, required: required.includes(name) })),
    ...nested.flatMap(properties),
  ];
};

/**
 * The budgets Anthropic puts on all strict tools of one request (20 tools, 24 optional parameters,
 * 16 parameters with a union type), and which of them `tools` crosses; empty when it fits.
 * https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations
 */
export const checkRequestBudget = (tools: readonly AnthropicTool[]): BudgetBreach[] => {
  const strict = tools.filter((tool) => tool.strict === true);
  const params = strict.flatMap((tool) => properties(tool.input_schema));
  const actual: Record<BudgetBreach["budget"], number> = {
    strictTools: strict.length,
    optionalParameters: params.filter((p) => !p.required).length,
    unionParameters: params.filter((p) => Array.isArray(p.schema["anyOf"]) || Array.isArray(p.schema["type"])).length,
  };
  return (Object.keys(ANTHROPIC_REQUEST_BUDGET) as BudgetBreach["budget"][])
    .filter((budget) => actual[budget] > ANTHROPIC_REQUEST_BUDGET[budget])
    .map((budget) => ({ budget, max: ANTHROPIC_REQUEST_BUDGET[budget], actual: actual[budget] }));
};
