// The agent loop on idl/booking: scripted models that send a bad call, read the structured error
// the gates return and fix the call from it on their next turn, in the Anthropic and the OpenAI
// dialect; unknown tools and unparseable arguments are error results; maxTurns bounds the loop; an agent
// with no projection for the loop's provider is not offered, and a call to it is an unknown tool.
import { describe, expect, it } from "vitest";
import { agents } from "../../generated/agents/index.js";
import * as taskResult from "../../generated/task.result/v2_0/index.js";
import {
  agentToTool,
  createAgentTools,
  createApprovals,
  createPipeline,
  runAgentLoop,
  runOpenAIAgentLoop,
  type AgentContract,
  type AnthropicMessage,
  type OpenAIAssistantMessage,
  type OpenAIMessage,
  type TextBlock,
  type ToolError,
  type ToolResultBlock,
  type ToolUseBlock,
} from "../../src/runtime/index.js";
import { STORE_KINDS } from "../support/stores.js";

const INTENT = { contract: "booking.intent", version: "1.0", intent_type: "BOOK", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY" };
const SEARCH = { contract: "booking.search", version: "1.0", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY", passengers: 1 };
const SELECTION = { contract: "booking.offer_selection", version: "1.0", offer_id: "OF-ZZZ999", passenger_names: ["Ada Lovelace"] };
const NOW = () => Date.parse("2030-04-01T09:00:00.000Z");
const TASK_RESULT = {
  contract: "task.result",
  version: "2.0",
  id: "TASK-1",
  status: "SUCCESS",
  result: { artifact_ref: "artifact://a/1", summary: "Done.", claims: [] },
  quality: { verification: "PASS", unresolved_items: [] },
};
const SEARCH_OFFERS = { contract: "booking.offers", version: "1.0" };

type Name = keyof typeof agents;

/** The booking agents with every execute recording its calls. */
const spied = () => {
  const calls: Name[] = [];
  const wrapped = Object.fromEntries(
    (Object.entries(agents) as [Name, AgentContract][]).map(([name, agent]) => [name, { ...agent, execute: (input: unknown) => (calls.push(name), agent.execute(input)) }]),
  ) as unknown as typeof agents;
  return { agents: wrapped, calls };
};

const booking = () => {
  const { agents: wrapped, calls } = spied();
  const approvals = createApprovals({ secret: "a host secret of at least thirty-two bytes", now: NOW });
  const session = createPipeline({ agents: wrapped, intent: INTENT, store: STORE_KINDS[0]!.open(), approvals, now: NOW });
  return { session, agents: wrapped, calls, approvals };
};

/** The tool results of the last user message, by tool_use id. */
const lastResults = (messages: readonly AnthropicMessage[]): Map<string, ToolResultBlock> => {
  const last = messages.at(-1)!;
  const blocks = last.role === "user" && typeof last.content !== "string" ? last.content : [];
  return new Map(blocks.filter((b): b is ToolResultBlock => b.type === "tool_result").map((b) => [b.tool_use_id, b]));
};
const use = (id: string, name: string, input: unknown): ToolUseBlock => ({ type: "tool_use", id, name, input });
const text = (value: string): TextBlock => ({ type: "text", text: value });

describe("runAgentLoop (Anthropic Messages)", () => {
  it("answers a fabricated offer id with a structured consistency error, from which the model takes a real offer and succeeds", async () => {
    const { session, agents: wrapped, calls } = booking();
    const seen: { tools: string[][]; errors: ToolError[] } = { tools: [], errors: [] };
    const outcome = await runAgentLoop({
      session,
      agents: wrapped,
      maxTurns: 5,
      messages: [{ role: "user", content: "Book me LHR to JFK on 1 May 2030." }],
      model: async (messages, tools) => {
        seen.tools.push(tools.map((t) => (t as { name: string }).name));
        const results = lastResults(messages);
        if (results.size === 0) return [text("Searching and holding."), use("t1", "availability_search", SEARCH), use("t2", "offer_builder", SELECTION)];
        if (results.has("t2")) {
          const error = JSON.parse(results.get("t2")!.content) as ToolError;
          seen.errors.push(error);
          // What a model does with the error: the gate names the path and where its values come from.
          const offers = JSON.parse(results.get("t1")!.content) as { offers: { offer_id: string }[] };
          const path = error.issues[0]!.path.slice(1);
          return [use("t3", "offer_builder", { ...SELECTION, [path]: offers.offers[0]!.offer_id })];
        }
        return [text(`Held: ${results.get("t3")!.content}`)];
      },
    });
    expect([outcome.stop, outcome.turns]).toEqual(["end_turn", 3]);
    expect(seen.tools[0]).toEqual(["airport_code_resolver", "availability_search", "offer_builder", "ticket_issuance"]);
    const [error] = seen.errors;
    expect(error).toMatchObject({ ok: false, gate: "consistency", agent: "booking.offer_builder", code: "CONSISTENCY_VIOLATED", class: "INVALID_INPUT" });
    expect(error!.issues).toEqual([{ path: "/offer_id", code: "consistency.not_provided", expected: expect.any(String), suggestion: expect.stringContaining("booking.availability_search") }]);
    // The refusal names paths and codes, never the value the model sent.
    expect(JSON.stringify(error)).not.toContain("OF-ZZZ999");
    const answers = outcome.messages.filter((m) => m.role === "user" && typeof m.content !== "string").flatMap((m) => m.content as ToolResultBlock[]);
    expect(answers.map((a) => [a.tool_use_id, a.is_error ?? false])).toEqual([
      ["t1", false],
      ["t2", true],
      ["t3", false],
    ]);
    expect(JSON.parse(answers[2]!.content)).toMatchObject({ contract: "booking.order", order_id: expect.stringMatching(/^OR-/) });
    expect(calls).toEqual(["booking.availability_search", "booking.offer_builder"]);
  });

  it("answers an unknown tool with an is_error result listing the tools, and runs nothing", async () => {
    const { session, agents: wrapped, calls } = booking();
    const outcome = await runAgentLoop({
      session,
      agents: wrapped,
      maxTurns: 2,
      messages: [{ role: "user", content: "Book a hotel." }],
      model: async (messages) => (lastResults(messages).size === 0 ? [use("h1", "hotel_booking", {})] : [text("I cannot book hotels.")]),
    });
    const result = lastResults(outcome.messages.slice(0, -1)).get("h1")!;
    expect(result.is_error).toBe(true);
    expect(JSON.parse(result.content)).toMatchObject({ ok: false, code: "UNKNOWN_TOOL", tools: ["airport_code_resolver", "availability_search", "offer_builder", "ticket_issuance"] });
    expect(outcome.stop).toBe("end_turn");
    expect(calls).toEqual([]);
  });

  it("stops after maxTurns with stop max_turns, every call of the last turn answered", async () => {
    const { session, agents: wrapped } = booking();
    let asked = 0;
    const outcome = await runAgentLoop({
      session,
      agents: wrapped,
      maxTurns: 3,
      messages: [{ role: "user", content: "Search forever." }],
      model: async () => [use(`s${++asked}`, "availability_search", SEARCH)],
    });
    expect([outcome.stop, outcome.turns, asked]).toEqual(["max_turns", 3, 3]);
    expect(outcome.messages.at(-1)).toMatchObject({ role: "user", content: [{ type: "tool_result", tool_use_id: "s3" }] });
    await expect(runAgentLoop({ session, agents: wrapped, maxTurns: 0, messages: [], model: async () => [] })).rejects.toThrow(RangeError);
  });

  it("tickets only with the host's approval: without one the loop answers APPROVAL_MISSING and execute never runs", async () => {
    const ticket = async (approve: boolean) => {
      const { session, agents: wrapped, calls, approvals } = booking();
      const ids: string[] = [];
      const outcome = await runAgentLoop({
        session,
        agents: wrapped,
        maxTurns: 4,
        messages: [{ role: "user", content: "Book and ticket." }],
        ...(approve && { approve: ({ session: s, agent, input }) => (agent === "booking.ticket_issuance" ? approvals.issue({ session: s, agent, input, ttl: 60_000 }) : undefined) }),
        model: async (messages) => {
          const results = lastResults(messages);
          if (results.size === 0) return [use("a", "availability_search", SEARCH), use("b", "offer_builder", { ...SELECTION, offer_id: "OF-ABC123" })];
          if (results.has("b")) {
            const order = JSON.parse(results.get("b")!.content) as { order_id: string };
            return [use("c", "ticket_issuance", { contract: "booking.ticket_request", version: "1.0", request_id: "TR-1", order_id: order.order_id })];
          }
          ids.push(results.get("c")!.content);
          return [text("done")];
        },
      });
      return { outcome, calls, result: JSON.parse(ids[0]!) as { ok?: false; code?: string; gate?: string } };
    };
    const refused = await ticket(false);
    expect(refused.result).toMatchObject({ ok: false, gate: "approval", code: "APPROVAL_MISSING" });
    expect(refused.calls).not.toContain("booking.ticket_issuance");
    const approved = await ticket(true);
    expect(approved.result).toMatchObject({ contract: "booking.tickets" });
    expect(approved.calls.filter((c) => c === "booking.ticket_issuance")).toHaveLength(1);
  });
});

describe("runOpenAIAgentLoop (OpenAI chat tool calls)", () => {
  // Without its intent lock, which would refuse a cabin the intent does not name before the schema sees it.
  const unlocked = () => {
    const { agents: wrapped, calls } = spied();
    const own = { search: { ...wrapped["booking.availability_search"], intent: undefined } };
    return { session: createPipeline({ agents: own, store: STORE_KINDS[0]!.open() }), agents: own, calls };
  };
  const toolMessages = (messages: readonly OpenAIMessage[]) => messages.filter((m): m is Extract<OpenAIMessage, { role: "tool" }> => m.role === "tool");
  const call = (id: string, name: string, args: string) => ({ id, type: "function" as const, function: { name, arguments: args } });

  it("answers a cabin outside the enum with the allowed values and their meanings, from which the model picks one and succeeds", async () => {
    const { session, agents: own, calls } = unlocked();
    const outcome = await runOpenAIAgentLoop({
      session,
      agents: own,
      maxTurns: 3,
      messages: [{ role: "user", content: "First class to JFK." }],
      model: async (messages, tools) => {
        expect(tools).toEqual([agents["booking.availability_search"].tools.openai]);
        const [last] = toolMessages(messages).slice(-1);
        if (last === undefined) return { role: "assistant", content: null, tool_calls: [call("c1", "availability_search", JSON.stringify({ ...SEARCH, cabin: "FIRST" }))] };
        const error = JSON.parse(last.content) as ToolError;
        if (error.ok === false) {
          const cabin = error.issues.find((i) => i.path === "/cabin")!.allowed!.at(-1)!.value;
          return { role: "assistant", content: null, tool_calls: [call("c2", "availability_search", JSON.stringify({ ...SEARCH, cabin }))] };
        }
        return { role: "assistant", content: "Found offers." };
      },
    });
    expect([outcome.stop, outcome.turns]).toEqual(["end_turn", 3]);
    const [bad, good] = toolMessages(outcome.messages);
    expect(bad!.tool_call_id).toBe("c1");
    expect(JSON.parse(bad!.content)).toEqual({
      ok: false,
      gate: "schema_in",
      agent: "booking.availability_search",
      code: "SCHEMA_INVALID",
      class: "INVALID_INPUT",
      retryable: expect.any(Boolean),
      message: expect.any(String),
      issues: [
        {
          path: "/cabin",
          code: "enum",
          expected: expect.any(String),
          suggestion: expect.any(String),
          allowed: [
            { value: "ECONOMY", meaning: "Economy cabin." },
            { value: "BUSINESS", meaning: "Business cabin." },
          ],
        },
      ],
    });
    expect(JSON.parse(good!.content)).toMatchObject({ contract: "booking.offers", offers: [{ cabin: "BUSINESS" }] });
    expect(calls).toEqual(["booking.availability_search"]);
  });

  it("undoes the strict tool's nulls for absent optional fields before the gates, as decode { from: openai } does", async () => {
    // An agent whose input (task.result 2.0) has an optional field, `usage`, which OpenAI strict makes required and nullable.
    const echo: AgentContract = {
      ...agents["booking.availability_search"],
      name: "demo.echo",
      tool: "echo",
      intent: undefined,
      consumes: [],
      provides: [],
      rules: [],
      input: { contract: "task.result", version: "2.0", check: taskResult.check, errors: taskResult.errors, shape: taskResult.shape, from: taskResult.llm.from },
      execute: (input: unknown) => ({ ...SEARCH_OFFERS, echoed: input }),
      output: { ...agents["booking.availability_search"].output, check: (_value: unknown): _value is unknown => true, errors: () => [] },
      confidence: undefined,
    };
    const reply = { ...TASK_RESULT, usage: null };
    const run = async (model: (tools: readonly object[]) => Promise<OpenAIAssistantMessage>) => {
      const session = createPipeline({ agents: { echo }, store: STORE_KINDS[0]!.open() });
      return runOpenAIAgentLoop({ session, agents: { echo }, maxTurns: 1, messages: [{ role: "user", content: "Echo." }], model: (_, tools) => model(tools) });
    };
    const outcome = await run(async () => ({ role: "assistant", content: null, tool_calls: [call("c1", "echo", JSON.stringify(reply))] }));
    const [answer] = toolMessages(outcome.messages);
    expect(JSON.parse(answer!.content)).toMatchObject({ echoed: TASK_RESULT });
    expect((JSON.parse(answer!.content) as { echoed: object }).echoed).not.toHaveProperty("usage");
    // Through the tools without naming the provider, the null is the contract's to judge: refused.
    const tools = createAgentTools({ session: createPipeline({ agents: { echo }, store: STORE_KINDS[0]!.open() }), agents: { echo } });
    expect(await tools.call({ name: "echo", input: reply })).toMatchObject({ ok: false, gate: "schema_in", issues: [{ path: "/usage", code: "type" }] });
    expect(await tools.call({ name: "echo", input: reply, provider: "openai" })).toMatchObject({ ok: true });
  });

  it("answers arguments that are not JSON, and an unknown function, with error results instead of throwing", async () => {
    const { session, agents: own, calls } = unlocked();
    const outcome = await runOpenAIAgentLoop({
      session,
      agents: own,
      maxTurns: 1,
      messages: [{ role: "user", content: "Search." }],
      model: async () => ({ role: "assistant", content: null, tool_calls: [call("x", "availability_search", '{"contract": "booking.search",'), call("y", "hotels", "{}")] }),
    });
    expect(outcome.stop).toBe("max_turns");
    expect(toolMessages(outcome.messages).map((m) => [m.tool_call_id, (JSON.parse(m.content) as ToolError).code])).toEqual([
      ["x", "ARGUMENTS_NOT_JSON"],
      ["y", "UNKNOWN_TOOL"],
    ]);
    expect(calls).toEqual([]);
  });
});

describe("an agent whose input contract is projected to MCP only (a recursive type leaves anthropic and openai out)", () => {
  /** The booking agents with the airport resolver's tools as such a contract generates them: MCP's alone. */
  const mcpOnly = () => {
    const { agents: wrapped, calls } = spied();
    const resolver = wrapped["booking.airport_code_resolver"];
    const own = { ...wrapped, "booking.airport_code_resolver": { ...resolver, tools: { mcp: resolver.tools.mcp } } };
    const approvals = createApprovals({ secret: "a host secret of at least thirty-two bytes", now: NOW });
    return { session: createPipeline({ agents: own, intent: INTENT, store: STORE_KINDS[0]!.open(), approvals, now: NOW }), agents: own, calls };
  };
  const OFFERED = ["availability_search", "offer_builder", "ticket_issuance"];

  it("has no Anthropic or OpenAI tool, and agentToTool answers undefined for it, for gemini and for a name that is no provider", () => {
    const resolver = mcpOnly().agents["booking.airport_code_resolver"];
    expect(agentToTool(resolver, "anthropic")).toBeUndefined();
    expect(agentToTool(resolver, "openai")).toBeUndefined();
    expect(agentToTool(resolver, "mcp")).toMatchObject({ name: "airport_code_resolver" });
    for (const provider of ["gemini", "constructor", "toString"]) expect(agentToTool(agents["booking.availability_search"], provider as "mcp")).toBeUndefined();
  });

  it("runAgentLoop offers the model only the other tools, and answers a call to it UNKNOWN_TOOL without running it", async () => {
    const { session, agents: own, calls } = mcpOnly();
    const offered: unknown[][] = [];
    const outcome = await runAgentLoop({
      session,
      agents: own,
      maxTurns: 2,
      messages: [{ role: "user", content: "Which airport is London?" }],
      model: async (messages, tools) => {
        offered.push([...tools]);
        return lastResults(messages).size === 0 ? [use("a1", "airport_code_resolver", { contract: "booking.airport_query", version: "1.0", query: "London" })] : [text("Sorry.")];
      },
    });
    expect(offered[0]!.map((t) => (t as { name: string }).name)).toEqual(OFFERED);
    const result = lastResults(outcome.messages.slice(0, -1)).get("a1")!;
    expect(result.is_error).toBe(true);
    expect(JSON.parse(result.content)).toMatchObject({ ok: false, code: "UNKNOWN_TOOL", tools: OFFERED });
    expect(calls).toEqual([]);
  });

  it("runOpenAIAgentLoop offers the model only the other tools, and answers a call to it UNKNOWN_TOOL without running it", async () => {
    const { session, agents: own, calls } = mcpOnly();
    const offered: unknown[][] = [];
    const outcome = await runOpenAIAgentLoop({
      session,
      agents: own,
      maxTurns: 1,
      messages: [{ role: "user", content: "Which airport is London?" }],
      model: async (_, tools) => {
        offered.push([...tools]);
        return { role: "assistant", content: null, tool_calls: [{ id: "o1", type: "function", function: { name: "airport_code_resolver", arguments: "{}" } }] };
      },
    });
    expect(offered[0]!.map((t) => (t as { function: { name: string } }).function.name)).toEqual(OFFERED);
    const answer = outcome.messages.at(-1) as Extract<OpenAIMessage, { role: "tool" }>;
    expect(JSON.parse(answer.content)).toMatchObject({ ok: false, code: "UNKNOWN_TOOL", tools: OFFERED });
    expect(calls).toEqual([]);
  });
});
