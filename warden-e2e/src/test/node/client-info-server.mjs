// An MCP server (the official TypeScript SDK's McpServer, over stdio) whose one tool, who-am-i,
// answers with the clientInfo its client gave in initialize (server.getClientVersion()): what a
// server shows, logs or behaves by. Used to check that `warden wrap` passes the client's own through.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'client-info', version: '1.0.0' });
server.registerTool('who-am-i', { description: 'Says which client is calling' },
  async () => ({ content: [{ type: 'text', text: JSON.stringify(server.server.getClientVersion() ?? null) }] }));
await server.connect(new StdioServerTransport());
