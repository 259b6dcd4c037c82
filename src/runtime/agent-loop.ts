// The agent loop over a provider-agnostic model function: the model answers with text and tool
// calls, each call runs through the gates, the results go back, and so on until the model stops
// calling tools or the turns run out. Two dialects of one loop: Anthropic Messages and OpenAI chat.
import type { AgentContract } from "./agents.js";
import { callError, createAgentTools, type AgentToolsOptions, type ToolCallResult } from "./agent-tools.js";

type AnyAgent = AgentContract<any, any>;

export interface TextBlock {
  readonly type: "text";
  readonly text: string;
}
export interface ToolUseBlock {
  readonly type: "tool_use";
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}
export interface ToolResultBlock {
  readonly type: "tool_result";
  readonly tool_use_id: string;
  /** The output, or the `ToolError`, as JSON. */
  readonly content: string;
  readonly is_error?: true;
}
export type AnthropicMessage =
  | { readonly role: "user"; readonly content: string | readonly (TextBlock | ToolResultBlock)[] }
  | { readonly role: "assistant"; readonly content: string | readonly (TextBlock | ToolUseBlock)[] };

/** The model: the conversation so far and the tools (Anthropic `tools[]`) in, the assistant's content blocks out. */
export type AnthropicModel = (messages: readonly AnthropicMessage[], tools: readonly object[]) => Promise<readonly (TextBlock | ToolUseBlock)[]>;

export interface OpenAIToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}
export type OpenAIMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string | null; readonly tool_calls?: readonly OpenAIToolCall[] }
  | { readonly role: "tool"; readonly tool_call_id: string; readonly content: string };
export type OpenAIAssistantMessage = Extract<OpenAIMessage, { role: "assistant" }>;

/** The model: the conversation and the tools (OpenAI strict `tools[]`) in, the assistant message out. */
export type OpenAIModel = (messages: readonly OpenAIMessage[], tools: readonly object[]) => Promise<OpenAIAssistantMessage>;

export interface LoopOptions<Agents extends { readonly [name: string]: AnyAgent }, Model, Message> extends AgentToolsOptions<Agents> {
  readonly model: Model;
  /** The conversation to start from, usually the user's request. */
  readonly messages: readonly Message[];
  /** How many times the model is asked at most. */
  readonly maxTurns: number;
}

/**
 * How the loop ended: `end_turn` when the model answered without a tool call, `max_turns` when it
 * was still calling tools after `maxTurns` (the last calls ran and are answered in `messages`).
 */
export interface LoopOutcome<Message> {
  readonly stop: "end_turn" | "max_turns";
  readonly turns: number;
  /** The whole conversation, the model's turns and the tool results included. */
  readonly messages: readonly Message[];
}

/** One provider's message format: how its tool calls are read and how their results are answered. */
interface Dialect<Reply, Message> {
  readonly provider: "anthropic" | "openai";
  assistant(reply: Reply): Message;
  calls(reply: Reply): readonly { readonly id: string; readonly name: string; readonly input: () => unknown }[];
  answer(results: readonly { readonly id: string; readonly result: ToolCallResult }[]): readonly Message[];
}

const NOT_JSON = Symbol("not JSON");

const loop = async <Agents extends { readonly [name: string]: AnyAgent }, Reply, Message>(
  dialect: Dialect<Reply, Message>,
  options: LoopOptions<Agents, (messages: readonly Message[], tools: readonly object[]) => Promise<Reply>, Message>,
): Promise<LoopOutcome<Message>> => {
  if (!Number.isInteger(options.maxTurns) || options.maxTurns < 1) throw new RangeError(`maxTurns must be a positive integer, not ${options.maxTurns}`);
  const tools = createAgentTools(options);
  const definitions = tools.definitions(dialect.provider);
  const messages = [...options.messages];
  for (let turn = 1; turn <= options.maxTurns; turn++) {
    const reply = await options.model(messages, definitions);
    messages.push(dialect.assistant(reply));
    const calls = dialect.calls(reply);
    if (calls.length === 0) return { stop: "end_turn", turns: turn, messages };
    // One at a time, in the model's order: a later call may consume what an earlier one provided.
    const results = [];
    for (const call of calls) {
      const input = call.input();
      const result = input === NOT_JSON ? callError("ARGUMENTS_NOT_JSON", "The tool call's arguments are not JSON; send them again as one JSON object.") : await tools.call({ name: call.name, input, provider: dialect.provider });
      results.push({ id: call.id, result });
    }
    messages.push(...dialect.answer(results));
  }
  return { stop: "max_turns", turns: options.maxTurns, messages };
};

const content = (result: ToolCallResult): string => JSON.stringify(result.ok ? result.output : result);

const ANTHROPIC: Dialect<readonly (TextBlock | ToolUseBlock)[], AnthropicMessage> = {
  provider: "anthropic",
  assistant: (blocks) => ({ role: "assistant", content: blocks }),
  calls: (blocks) => blocks.filter((block): block is ToolUseBlock => block.type === "tool_use").map((block) => ({ id: block.id, name: block.name, input: () => block.input })),
  // All results of a turn in one user message, as the Messages API wants them.
  answer: (results) => [
    { role: "user", content: results.map(({ id, result }) => ({ type: "tool_result", tool_use_id: id, content: content(result), ...(!result.ok && { is_error: true as const }) })) },
  ],
};

const OPENAI: Dialect<OpenAIAssistantMessage, OpenAIMessage> = {
  provider: "openai",
  assistant: (message) => message,
  calls: (message) =>
    (message.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function.name,
      input: () => {
        try {
          return JSON.parse(call.function.arguments) as unknown;
        } catch {
          return NOT_JSON;
        }
      },
    })),
  // OpenAI has no error flag on a tool message: the `ok: false` of the JSON says it.
  answer: (results) => results.map(({ id, result }) => ({ role: "tool", tool_call_id: id, content: content(result) })),
};

/** Runs the loop with an Anthropic Messages-shaped model: `tool_use` blocks in, `tool_result` blocks (with `is_error` on a refusal) out. */
export const runAgentLoop = <Agents extends { readonly [name: string]: AnyAgent }>(options: LoopOptions<Agents, AnthropicModel, AnthropicMessage>): Promise<LoopOutcome<AnthropicMessage>> =>
  loop(ANTHROPIC, options);

/** Runs the loop with an OpenAI chat model: assistant `tool_calls` in, `role: "tool"` messages out. */
export const runOpenAIAgentLoop = <Agents extends { readonly [name: string]: AnyAgent }>(options: LoopOptions<Agents, OpenAIModel, OpenAIMessage>): Promise<LoopOutcome<OpenAIMessage>> =>
  loop(OPENAI, options);
