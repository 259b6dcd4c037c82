// The generated agent modules of idl/booking: the contract data the gates will run against, and
// the tools built from the projections, refereed by the providers' own code and the MCP schema.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { transformJSONSchema } from "@anthropic-ai/sdk/lib/transform-json-schema";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { toStrictJsonSchema } from "openai/lib/transform";
import { describe, expect, it } from "vitest";
import { agents } from "../../generated/agents/index.js";
import { agentToTool, type AgentContract } from "../../src/runtime/index.js";

const ROOT = join(import.meta.dirname, "../..");
const MCP = JSON.parse(readFileSync(join(ROOT, "test/reference/agent-protocols/mcp/schema-2025-11-25.json"), "utf8")) as object;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const all = Object.values(agents) as readonly AgentContract[];
type Tool = { name: string; description: string; annotations?: Record<string, boolean> };

describe("generated agent contracts", () => {
  it("carry the effective floor: the action's, raised to 0.90 for a reference agent, never lowered", () => {
    expect(Object.fromEntries(all.map((a) => [a.name, [a.action, a.reference, a.floor, a.threshold]]))).toEqual({
      "booking.airport_code_resolver": ["query", true, 0.9, 0.9],
      "booking.availability_search": ["query", false, 0.7, 0.8],
      "booking.offer_builder": ["mutation_reversible", false, 0.9, 0.9],
      "booking.ticket_issuance": ["mutation_irreversible", false, 0.95, 0.97],
    });
  });

  it("name list items in paths as segments, each path with its generated reader", () => {
    const data = ({ path, segments }: { path: string; segments: readonly string[] }) => ({ path, segments });
    expect(agents["booking.availability_search"].provides.map(data)).toEqual([{ path: "offers[].offer_id", segments: ["offers", "[]", "offer_id"] }]);
    const [consumed] = agents["booking.offer_builder"].consumes;
    expect({ ...data(consumed!), from: consumed!.from, as: data(consumed!.as) }).toEqual({
      path: "offer_id",
      segments: ["offer_id"],
      from: "booking.availability_search",
      as: { path: "offers[].offer_id", segments: ["offers", "[]", "offer_id"] },
    });
    expect(data(agents["booking.ticket_issuance"].idempotencyKey)).toEqual({ path: "request_id", segments: ["request_id"] });
    expect(data(agents["booking.availability_search"].intent.typeField)).toEqual({ path: "intent_type", segments: ["intent_type"] });
    // The reader finds every value at its path with its pointer, and nothing where the payload has no such place.
    const [offers] = agents["booking.availability_search"].provides;
    expect(offers!.read({ offers: [{ offer_id: "OF-1" }, { price: 3 }, { offer_id: "OF-2" }] })).toEqual([
      { pointer: "/offers/0/offer_id", value: "OF-1" },
      { pointer: "/offers/2/offer_id", value: "OF-2" },
    ]);
    for (const nothing of [undefined, null, "x", [], { offers: "x" }, { offers: [null, ["offer_id"]] }, Object.create({ offers: [{ offer_id: "OF-9" }] })]) expect(offers!.read(nothing)).toEqual([]);
  });

  it("validate through the contracts' generated validators", () => {
    const search = agents["booking.availability_search"];
    const valid = { contract: "booking.search", version: "1.0", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY", passengers: 1 };
    expect(search.input.check(valid)).toBe(true);
    expect(search.input.errors({ ...valid, cabin: "FIRST" })).toContainEqual(expect.objectContaining({ path: "/cabin", code: "enum" }));
  });

  it("run the hand-written bodies of idl/booking, whose outputs pass the output contracts", async () => {
    const resolver = agents["booking.airport_code_resolver"];
    expect(await resolver.rules[0]!.check({ text: "Heathrow" } as never)).toEqual({ ok: true });
    expect(await resolver.rules[0]!.check({ text: "Atlantis" } as never)).toMatchObject({ ok: false, path: "/text" });
    const search = agents["booking.availability_search"];
    const offers = await search.execute({ contract: "booking.search", version: "1.0", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY", passengers: 2 });
    expect(search.output.errors(offers)).toEqual([]);
    const order = await agents["booking.offer_builder"].execute({ contract: "booking.offer_selection", version: "1.0", offer_id: offers.offers[0]!.offer_id, passenger_names: ["Ada Lovelace"] });
    expect(agents["booking.offer_builder"].output.errors(order)).toEqual([]);
    const tickets = await agents["booking.ticket_issuance"].execute({ contract: "booking.ticket_request", version: "1.0", request_id: "TR-1", order_id: order.order_id });
    expect(agents["booking.ticket_issuance"].output.errors(tickets)).toEqual([]);
  });

  it("take MCP hints from the action type and the idempotency key", () => {
    const hints = Object.fromEntries(all.map((a) => [a.name, (agentToTool(a, "mcp") as Tool).annotations]));
    expect(hints).toEqual({
      "booking.airport_code_resolver": { readOnlyHint: true },
      "booking.availability_search": { readOnlyHint: true },
      "booking.offer_builder": { readOnlyHint: false, destructiveHint: false },
      "booking.ticket_issuance": { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    });
  });

  describe.each(all.map((a) => [a.name, a] as const))("%s as a tool", (_name, agent) => {
    it("is named by its tool name and described by its summary for every provider", () => {
      for (const tool of [agentToTool(agent, "anthropic"), agentToTool(agent, "mcp"), (agentToTool(agent, "openai") as { function: Tool }).function] as Tool[]) {
        expect(tool.name).toBe(agent.tool);
        expect(tool.description.startsWith(agent.summary!)).toBe(true);
      }
    });

    it("needs no change from the providers' own schema transforms", () => {
      const openai = agentToTool(agent, "openai") as { function: { parameters: Record<string, unknown>; strict: boolean } };
      expect(openai.function.strict).toBe(true);
      expect(toStrictJsonSchema(openai.function.parameters as never)).toEqual(openai.function.parameters);
      const anthropic = agentToTool(agent, "anthropic") as { input_schema: Record<string, unknown> };
      expect(transformJSONSchema(anthropic.input_schema as never)).toEqual(anthropic.input_schema);
    });

    it("is an MCP Tool", () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema(MCP, "mcp");
      const tool = ajv.getSchema("mcp#/$defs/Tool")!;
      expect(tool(agentToTool(agent, "mcp")), JSON.stringify(tool.errors)).toBe(true);
    });
  });
});
