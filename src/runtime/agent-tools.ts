// Agents as tools (DESIGN.md §8): a model's tool call runs through the session's gates, and what
// comes back is what the model can act on, a refusal included, as JSON. One mechanism for every
// way a model calls tools: the Anthropic-shaped loop, the OpenAI adapter and the MCP server.
import { agentToTool, type AgentContract, type AgentToolProvider } from "./agents.js";
import { GATES, type Gate, type GateFailure, type Session } from "./agent-pipeline.js";
import type { ApprovalToken } from "./approvals.js";
import type { ErrorClass } from "./errors.js";
import { mappedBack, NOT_MAPPED } from "./registry.js";
import { allowedValues } from "./reask.js";

type AnyAgent = AgentContract<any, any>;

/** One issue as the model gets it: where, the stable code, what was expected, what to do, and the values allowed there with their meanings. */
export interface ToolIssue {
  readonly path: string;
  readonly code: string;
  readonly expected: string;
  readonly suggestion?: string;
  readonly allowed?: readonly { readonly value: string; readonly meaning: string }[];
}

/**
 * A refused tool call as the model reads it. It carries what the gate failure already exposes
 * (codes, masked paths, expectations, suggestions), never a payload value.
 */
export interface ToolError {
  readonly ok: false;
  /** The gate that refused; absent when the call never reached the gates (unknown tool, arguments not JSON). */
  readonly gate?: Gate;
  readonly agent?: string;
  /** The operation.error code: `CONSISTENCY_VIOLATED`, …, or `UNKNOWN_TOOL`, `ARGUMENTS_NOT_JSON`. */
  readonly code: string;
  readonly class: ErrorClass;
  readonly retryable: boolean;
  readonly message: string;
  readonly issues: readonly ToolIssue[];
  /** UNKNOWN_TOOL: the tools there are. */
  readonly tools?: readonly string[];
}

export type ToolCallResult = { readonly ok: true; readonly output: unknown } | ToolError;

/** A tool call the model made: the agent's tool name and its input. */
export interface ToolCall {
  readonly name: string;
  readonly input: unknown;
  /** The provider whose tool definition the model called, when known: what its projection widened is undone before the gates. */
  readonly provider?: AgentToolProvider;
}

/**
 * `input` as the agent's input contract has it, from what `provider`'s tool definition asked for
 * (`AgentPayload.from`, as decode maps a reply back). A reply the mapping finds fault with (a map
 * naming a key twice) is passed on as sent, for the schema gate to refuse.
 */
const fromProvider = (agent: AnyAgent, input: unknown, provider: AgentToolProvider | undefined): unknown => {
  if (provider === undefined) return input;
  const mapped = mappedBack(agent.input, input, provider);
  return mapped === NOT_MAPPED ? input : mapped;
};

export interface AgentToolsOptions<Agents extends { readonly [name: string]: AnyAgent }> {
  readonly session: Session<Agents>;
  /** The same agents the session runs, by the names the session knows them by. */
  readonly agents: Agents;
  /**
   * The host's say on a call, asked before each one: a token from `approvals.issue` for a call a
   * human approved, else undefined (an agent that needs approval is then refused at its gate).
   */
  readonly approve?: (call: { readonly session: string; readonly agent: keyof Agents & string; readonly input: unknown }) => ApprovalToken | undefined | Promise<ApprovalToken | undefined>;
}

export interface AgentTools {
  /** The tool definition for `provider` of each agent whose input contract is projected to it, from its LLM projections. */
  definitions(provider: AgentToolProvider): object[];
  /**
   * Runs the agent whose tool `call.name` is through the session's gates; a tool not offered to
   * `call.provider` (see `definitions`) is an UNKNOWN_TOOL refusal. What `execute` throws is
   * rethrown, as `session.run` does.
   */
  call(call: ToolCall): Promise<ToolCallResult>;
}

/** The failure as the model gets it; the allowed values are read from the payload the failing gate checked. */
export const toolError = (failure: GateFailure, agent: AnyAgent): ToolError => {
  // Issues of a missing intent are about the host's intent, not the input: no input enum applies.
  const shape = failure.kind === "intent-missing" ? undefined : GATES.indexOf(failure.gate) < GATES.indexOf("execute") ? agent.input.shape : agent.output.shape;
  return {
    ok: false,
    gate: failure.gate,
    agent: failure.agent,
    code: failure.error.code,
    class: failure.error.class,
    retryable: failure.error.retryable,
    message: failure.error.message_safe,
    issues: failure.issues.map((issue) => {
      const allowed = allowedValues(issue.path, shape);
      return {
        path: issue.path,
        code: issue.code,
        expected: issue.expected,
        ...(issue.suggestion !== undefined && { suggestion: issue.suggestion }),
        ...(allowed.length > 0 && { allowed: allowed.map(([value, meaning]) => ({ value, meaning })) }),
      };
    }),
  };
};

/** A call refused before the gates: the model named no tool there is, or sent arguments that are not JSON. */
export const callError = (code: "UNKNOWN_TOOL" | "ARGUMENTS_NOT_JSON", message: string, tools?: readonly string[]): ToolError => ({
  ok: false,
  code,
  class: "INVALID_INPUT",
  retryable: true,
  message,
  issues: [],
  ...(tools && { tools }),
});

/** The session's agents as tools, by tool name. */
export const createAgentTools = <Agents extends { readonly [name: string]: AnyAgent }>(options: AgentToolsOptions<Agents>): AgentTools => {
  const { session, agents, approve } = options;
  const byTool = new Map<string, keyof Agents & string>();
  for (const [name, agent] of Object.entries(agents)) {
    if (byTool.has(agent.tool)) throw new TypeError(`createAgentTools: two agents have the tool name ${agent.tool}`);
    byTool.set(agent.tool, name);
  }
  // A call for `provider` reaches only the agents offered to it: those whose input contract is projected to it.
  const offered = (name: string, provider: AgentToolProvider | undefined): boolean => provider === undefined || agentToTool(agents[name]!, provider) !== undefined;
  return {
    definitions: (provider) => Object.values(agents).flatMap((agent) => agentToTool(agent, provider) ?? []),
    call: async ({ name: tool, input: sent, provider }) => {
      const name = byTool.get(tool);
      if (name === undefined || !offered(name, provider)) {
        const tools = [...byTool].filter(([, agent]) => offered(agent, provider)).map(([listed]) => listed);
        return callError("UNKNOWN_TOOL", `There is no tool ${JSON.stringify(tool)}; call one of the tools listed.`, tools);
      }
      const input = fromProvider(agents[name]!, sent, provider);
      const approval = await approve?.({ session: session.id, agent: name, input });
      const run = await session.run(name, input, approval ? { approval } : {});
      return run.ok ? { ok: true, output: run.output } : toolError(run, agents[name]!);
    },
  };
};
