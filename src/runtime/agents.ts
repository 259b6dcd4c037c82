// What a generated agent module (`agents/<agent>.ts`) exports: the agent's contract as data, for
// the gates to run against and for hosts to offer as tools. Types only, and `agentToTool`.
import type { Issue } from "./issue.js";
import type { VersionShape } from "./shape.js";

export type AgentAction = "query" | "mutation_reversible" | "mutation_irreversible";

/** The providers an agent becomes a tool for. */
export type AgentToolProvider = "anthropic" | "openai" | "mcp";

/** A field path as data: `offers[].offer_id` → ["offers", "[]", "offer_id"]; "[]" steps into every item of a list. */
export type AgentPathSegments = readonly string[];

/** A value found at a path, with its JSON pointer in the payload. */
export interface AgentFound {
  readonly pointer: string;
  readonly value: unknown;
}

export interface AgentPathData {
  /** As written in the agent file. */
  readonly path: string;
  readonly segments: AgentPathSegments;
  /** Every value at the path, in payload order: generated straight-line code for this one path. */
  read(value: unknown): readonly AgentFound[];
}

/** A payload an agent reads or writes: one contract version and its generated validator. */
export interface AgentPayload<T> {
  readonly contract: string;
  readonly version: string;
  check(value: unknown): value is T;
  errors(value: unknown): Issue[];
  /** What the gates redact events by and read enum meanings from for suggestions. */
  readonly shape: VersionShape;
  /**
   * Per provider, what undoes its projection in a tool call's arguments (the nulls OpenAI strict
   * writes for absent fields, maps sent as entries): the version's generated `llm.from`; null
   * where the arguments are the contract's value. Generated for an agent's input.
   */
  readonly from?: { readonly [provider: string]: ((value: unknown, issues: Issue[]) => unknown) | null };
}

export type AgentRuleData =
  | { readonly kind: "before"; readonly first: AgentPathData; readonly second: AgentPathData }
  | { readonly kind: "exclusive"; readonly fields: readonly AgentPathData[] }
  | { readonly kind: "requires"; readonly if: AgentPathData; readonly then: readonly AgentPathData[] }
  /** A check written by hand beside the agent file, exported under `name` there. */
  | { readonly kind: "custom"; readonly name: string; check(input: never): AgentRuleResult | Promise<AgentRuleResult> };

export interface AgentContract<I = unknown, O = unknown> {
  readonly name: string;
  readonly tool: string;
  readonly summary?: string;
  readonly action: AgentAction;
  readonly reference: boolean;
  /** The lowest threshold the action allows (with 0.90 for a reference agent). */
  readonly floor: number;
  /** What the output's confidence must reach: the declared threshold, else the floor. */
  readonly threshold: number;
  readonly input: AgentPayload<I>;
  readonly output: AgentPayload<O>;
  /** The output field carrying the confidence; absent when the output carries none. */
  readonly confidence?: AgentPathData;
  /** The input field with `role: idempotency_key`: a mutation with a key that already succeeded does not run again. */
  readonly idempotencyKey?: AgentPathData;
  readonly provides: readonly AgentPathData[];
  /** Input paths that must equal what `from` provided as `as` earlier in the session. */
  readonly consumes: readonly (AgentPathData & { readonly from: string; readonly as: AgentPathData })[];
  readonly intent?: AgentPayload<unknown> & {
    readonly lock: readonly { readonly input: AgentPathData; readonly intent: AgentPathData }[];
    /** Intent types (values of the intent's `role: intent_type` field) served; empty: all. */
    readonly serves: readonly string[];
    readonly typeField?: AgentPathData;
  };
  readonly rules: readonly AgentRuleData[];
  /** The agent's side of the work, written by hand beside the agent file. */
  execute(input: I): O | Promise<O>;
  /** The tool definitions, built from the input contract's LLM projections. */
  readonly tools: { readonly [P in AgentToolProvider]?: object };
}

/** What `agentToTool(agent, provider)` returns: the agent's tool for `provider`, or undefined where it has none. */
export type AgentTool<A extends AgentContract, P extends AgentToolProvider> = A extends AgentContract ? (P extends keyof A["tools"] ? A["tools"][P] : undefined) : never;

/**
 * The agent as one provider's tool definition: Anthropic `tools[]`, OpenAI strict `tools[]`, or an
 * MCP `Tool`. Undefined when the agent's input contract is not projected to `provider` (its
 * `llm.providers` leave it out, as a recursive type makes them), or for any other provider name.
 */
export function agentToTool<A extends AgentContract, P extends AgentToolProvider>(agent: A, provider: P): AgentTool<A, P> {
  // Own properties only: a name such as `constructor` is no provider.
  return (Object.hasOwn(agent.tools, provider) ? agent.tools[provider] : undefined) as AgentTool<A, P>;
}

/** What a custom rule of an agent returns: pass, or where and why the input fails. */
/**
 * What a custom rule says of an input. On failure, `path` is a JSON Pointer (RFC 6901) into the
 * agent's input, as the issues of the runtime carry them: `"/return_date"`, `"/passengers/0/name"`,
 * `""` for the input as a whole. Like every issue's path it is masked by the input contract's
 * shape before it leaves the gate: a segment the contract does not declare (a map's key, or a
 * dotted `return_date` that is not a pointer at all) becomes `*`. `message` says what was expected
 * and `suggestion` what the model should do; both reach the model in a re-ask, so neither quotes
 * the payload.
 */
export type AgentRuleResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly path: string; readonly message: string; readonly suggestion?: string };

/** Thrown by a function of an agent's hand-written file until someone writes it. */
export class AgentNotImplemented extends Error {
  constructor(
    readonly agent: string,
    readonly function_: string,
  ) {
    super(`${agent}: '${function_}' is not written yet; write it in the agent's .agent.ts file`);
    this.name = "AgentNotImplemented";
  }
}
