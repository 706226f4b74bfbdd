// The JavaScript transport twin of docs/audit-twins.md, on the official TypeScript SDK: vulnerable
// (by default) it speaks only the 2024-11-05 HTTP+SSE transport (GET /sse, POST /messages; /mcp is
// a 404); with --safe, Streamable HTTP at /mcp. One harmless tool. Prints "PORT n" once listening.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';
import { safe, text } from './twin-common.mjs';

function newServer() {
  const server = new McpServer({ name: 'acme-echo', version: '1.0.0' });
  server.registerTool('twin_echo', { description: 'Repeats the text it is given.', inputSchema: { text: z.string() } },
    async ({ text: said }) => text(said));
  return server;
}

const sessions = new Map();

const http = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (safe && url.pathname === '/mcp') {
    // Stateless: a server and transport per request, as the SDK's example does.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = newServer();
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res);
    return;
  }
  if (!safe && req.method === 'GET' && url.pathname === '/sse') {
    const transport = new SSEServerTransport('/messages', res);
    sessions.set(transport.sessionId, transport);
    res.on('close', () => sessions.delete(transport.sessionId));
    await newServer().connect(transport);
    return;
  }
  if (!safe && req.method === 'POST' && url.pathname === '/messages') {
    const transport = sessions.get(url.searchParams.get('sessionId'));
    if (transport) {
      await transport.handlePostMessage(req, res);
      return;
    }
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
});

http.listen(0, '127.0.0.1', () => console.log(`PORT ${http.address().port}`));
