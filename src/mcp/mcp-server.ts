// The session's agents as an MCP server: `tools/list` answers with each agent's MCP projection,
// `tools/call` runs the call through the gates (createAgentTools, as the agent loop does). A
// refusal is a tool result the model reads (`isError: true`, the structured failure as JSON text),
// not a protocol error: the model can act on it.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { AgentContract } from "../runtime/agents.js";
import { createAgentTools, type AgentToolsOptions } from "../runtime/agent-tools.js";
import { TREATY_VERSION } from "../runtime/version.js";

type AnyAgent = AgentContract<any, any>;

export interface McpServerOptions<Agents extends { readonly [name: string]: AnyAgent }> extends AgentToolsOptions<Agents> {
  /** The server's name and version in the MCP handshake; `treaty` and treaty's version unless given. */
  readonly name?: string;
  readonly version?: string;
}

/** An MCP server (not yet connected: `await server.connect(transport)`) serving the session's agents as tools. */
export const createMcpServer = <Agents extends { readonly [name: string]: AnyAgent }>(options: McpServerOptions<Agents>): Server => {
  const tools = createAgentTools(options);
  const server = new Server({ name: options.name ?? "treaty", version: options.version ?? TREATY_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.definitions("mcp") as Tool[] }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const result = await tools.call({ name: request.params.name, input: request.params.arguments, provider: "mcp" });
    // A refusal is text alone: structuredContent should conform to the tool's outputSchema, and
    // the SDK's callTool throws on one that does not (as the refusal would), so the model never saw it.
    if (!result.ok) return { content: [{ type: "text", text: JSON.stringify(result) }], isError: true };
    const structured = result.output as Record<string, unknown>;
    // The text block repeats the structured content for clients that show only text (the spec's advice).
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  });
  return server;
};
