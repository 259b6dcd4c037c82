// The booking agents as an MCP server, driven by the MCP SDK's own client over its in-memory
// transport: the tools it lists are the agents' MCP projections and valid MCP Tools; calls go
// through the gates; a refusal is an isError result whose text, JSON, names the gate (and no
// structuredContent, which the tool's outputSchema would not fit).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterEach, describe, expect, it } from "vitest";
import { agents } from "../../generated/agents/index.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { agentToTool, createApprovals, createPipeline, type AgentContract } from "../../src/runtime/index.js";
import { STORE_KINDS } from "../support/stores.js";

const ROOT = join(import.meta.dirname, "../..");
const MCP = JSON.parse(readFileSync(join(ROOT, "test/reference/agent-protocols/mcp/schema-2025-11-25.json"), "utf8")) as object;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const INTENT = { contract: "booking.intent", version: "1.0", intent_type: "BOOK", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY" };
const SEARCH = { contract: "booking.search", version: "1.0", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY", passengers: 1 };
const SELECTION = { contract: "booking.offer_selection", version: "1.0", offer_id: "OF-ABC123", passenger_names: ["Ada Lovelace"] };
const NOW = () => Date.parse("2030-04-01T09:00:00.000Z");

type Name = keyof typeof agents;

/** A refusal as a client reads it: isError, no structuredContent, the refusal as the text block's JSON. */
const refusal = (result: object): unknown => {
  const { isError, structuredContent, content } = result as { isError?: boolean; structuredContent?: unknown; content: { text: string }[] };
  expect([isError, structuredContent]).toEqual([true, undefined]);
  return JSON.parse(content[0]!.text) as unknown;
};
const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

/** A server over the booking agents (every execute recording its calls; `edit` changes them first) and an SDK client connected to it. */
const connect = async (edit: (all: typeof agents) => typeof agents = (all) => all) => {
  const calls: Name[] = [];
  const wrapped = Object.fromEntries(
    (Object.entries(edit(agents)) as [Name, AgentContract][]).map(([name, agent]) => [name, { ...agent, execute: (input: unknown) => (calls.push(name), agent.execute(input)) }]),
  ) as unknown as typeof agents;
  const approvals = createApprovals({ secret: "a host secret of at least thirty-two bytes", now: NOW });
  const session = createPipeline({ agents: wrapped, intent: INTENT, store: STORE_KINDS[0]!.open(), approvals, now: NOW });
  const server = createMcpServer({ session, agents: wrapped });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "1.0.0" });
  await server.connect(serverSide);
  await client.connect(clientSide);
  open.push(client);
  return { client, calls };
};

describe("createMcpServer", () => {
  it("lists the agents' MCP projections, each a valid MCP Tool", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools).toEqual(Object.values(agents).map((agent) => agentToTool(agent, "mcp")));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(MCP, "mcp");
    const valid = ajv.getSchema("mcp#/$defs/Tool")!;
    for (const tool of tools) expect(valid(tool), JSON.stringify(valid.errors)).toBe(true);
  });

  it("runs a good call through the gates and returns the output as structuredContent", async () => {
    const { client, calls } = await connect();
    const result = await client.callTool({ name: "availability_search", arguments: SEARCH });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ contract: "booking.offers", offers: [{ offer_id: "OF-ABC123" }] });
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(result.structuredContent);
    expect(calls).toEqual(["booking.availability_search"]);
  });

  it("answers a fabricated offer id with isError and a refusal naming the consistency gate", async () => {
    const { client, calls } = await connect();
    await client.callTool({ name: "availability_search", arguments: SEARCH });
    await client.listTools();
    const result = await client.callTool({ name: "offer_builder", arguments: { ...SELECTION, offer_id: "OF-ZZZ999" } });
    expect(refusal(result)).toMatchObject({ ok: false, gate: "consistency", code: "CONSISTENCY_VIOLATED", issues: [{ path: "/offer_id", code: "consistency.not_provided" }] });
    expect(JSON.stringify(result)).not.toContain("OF-ZZZ999");
    expect(calls).toEqual(["booking.availability_search"]);
  });

  it("never runs ticketing without an approval: a fabricated order id and a real one are both refused before execute", async () => {
    const { client, calls } = await connect();
    await client.callTool({ name: "availability_search", arguments: SEARCH });
    const order = await client.callTool({ name: "offer_builder", arguments: SELECTION });
    const orderId = (order.structuredContent as { order_id: string }).order_id;
    const request = (order_id: string) => ({ contract: "booking.ticket_request", version: "1.0", request_id: "TR-1", order_id });
    const fabricated = await client.callTool({ name: "ticket_issuance", arguments: request("OR-ZZZ99900") });
    expect(refusal(fabricated)).toMatchObject({ gate: "consistency" });
    const unapproved = await client.callTool({ name: "ticket_issuance", arguments: request(orderId) });
    expect(refusal(unapproved)).toMatchObject({ gate: "approval", code: "APPROVAL_MISSING" });
    expect(calls).not.toContain("booking.ticket_issuance");
  });

  it("answers a number JSON cannot hold (1e999 parses as Infinity) with an isError refusal at schema in, not a protocol error", async () => {
    const { client, calls } = await connect();
    // The in-memory transport hands the message over as an object: what JSON.parse makes of `"passengers": 1e999`.
    const result = await client.callTool({ name: "availability_search", arguments: { ...SEARCH, passengers: JSON.parse("1e999") as number } });
    expect(refusal(result)).toMatchObject({ ok: false, gate: "schema_in", code: "SCHEMA_INVALID", issues: [{ path: "/passengers" }] });
    expect(calls).toEqual([]);
  });

  it("returns a refusal of a tool with an outputSchema to the SDK's callTool once it has listed the tools, which checks structuredContent against it", async () => {
    const { client, calls } = await connect();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "availability_search")?.outputSchema).toBeDefined();
    const result = await client.callTool({ name: "availability_search", arguments: { ...SEARCH, passengers: "two" } });
    expect(refusal(result)).toMatchObject({ ok: false, gate: "schema_in", code: "SCHEMA_INVALID", issues: [{ path: "/passengers", code: "type" }] });
    expect(calls).toEqual([]);
  });

  it("neither lists nor runs an agent whose input contract is not projected to MCP, and answers its tool as unknown", async () => {
    const resolver = agents["booking.airport_code_resolver"];
    const { client, calls } = await connect((all) => ({ ...all, "booking.airport_code_resolver": { ...resolver, tools: { anthropic: resolver.tools.anthropic, openai: resolver.tools.openai } } }) as unknown as typeof agents);
    const { tools } = await client.listTools();
    const others = Object.values(agents).filter((agent) => agent !== resolver).map((agent) => agent.tool);
    expect(tools.map((tool) => tool.name)).toEqual(others);
    const result = await client.callTool({ name: resolver.tool, arguments: { contract: "booking.airport_query", version: "1.0", query: "London" } });
    expect(refusal(result)).toMatchObject({ ok: false, code: "UNKNOWN_TOOL", tools: others });
    expect(calls).toEqual([]);
  });

  it("answers an unknown tool with isError and the tools there are", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "hotel_booking", arguments: {} });
    expect(refusal(result)).toMatchObject({ code: "UNKNOWN_TOOL", tools: Object.values(agents).map((a) => a.tool) });
  });
});
