// A server on the 2024-11-05 HTTP+SSE transport only, built with the official TypeScript SDK's
// SSEServerTransport (@modelcontextprotocol/sdk 1.32.2): GET /sse opens the event stream (its first
// event names /messages?sessionId=…), POST /messages carries what the client sends; /mcp is a 404,
// as on a server that predates Streamable HTTP. Prints "listening on port N" once it listens (port 0
// by default, or PORT).
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';

const transports = new Map();

function newServer() {
  const server = new McpServer({ name: 'legacy-notes', version: '0.3.0' });
  server.registerTool('echo', {
    description: 'Repeats the text it is given.',
    inputSchema: { text: z.string() },
  }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('count_words', {
    description: 'Counts the words of a text.',
    inputSchema: { text: z.string().max(1000) },
  }, async ({ text }) => ({ content: [{ type: 'text', text: String(text.split(/\s+/).filter(Boolean).length) }] }));
  return server;
}

const httpServer = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/sse') {
    const transport = new SSEServerTransport('/messages', res);
    transports.set(transport.sessionId, transport);
    res.on('close', () => transports.delete(transport.sessionId));
    await newServer().connect(transport);
  } else if (req.method === 'POST' && url.pathname === '/messages') {
    const transport = transports.get(url.searchParams.get('sessionId'));
    if (!transport) {
      res.writeHead(404).end('no such session');
      return;
    }
    await transport.handlePostMessage(req, res);
  } else {
    res.writeHead(404).end('not found');
  }
});

httpServer.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on port ${httpServer.address().port}`);
});
