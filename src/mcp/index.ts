// "treaty/mcp": the agents as an MCP server. Needs the optional peer dependency
// @modelcontextprotocol/sdk (1.x); the runtime itself stays free of dependencies.
export { createMcpServer, type McpServerOptions } from "./mcp-server.js";
