// A server that speaks only the 2026-07-28 (stateless) revision, built on the official TypeScript
// SDK v2 with `legacy: 'reject'`: initialize gets -32022. Prints "listening <port>" once bound.
// The end-to-end tests put `warden gateway` in front of it for clients of the session-based versions.
import { createServer } from 'node:http';
import { createMcpHandler, McpServer, inputRequired } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod';

const factory = () => {
  const server = new McpServer({ name: 'modern-ts', version: '2.4.0' },
    { capabilities: { logging: {} } });
  server.registerTool('echo', { description: 'Echoes the message', inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: 'text', text: 'Echo: ' + message }] }));
  server.registerTool('confirm', { description: 'Asks the user to confirm, then reports the answer',
    inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = ctx.mcpReq.inputResponses?.ok;
    if (!answer) {
      return inputRequired({ inputRequests: { ok: inputRequired.elicit({ message: 'Proceed?',
        requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } }, required: ['yes'] } }) } });
    }
    return { content: [{ type: 'text', text: 'answer: ' + JSON.stringify(answer) }] };
  });
  server.registerTool('capabilities', { description: 'Reports the client capabilities this request carried',
    inputSchema: z.object({}) }, async (_args, ctx) => ({ content: [{ type: 'text',
      text: JSON.stringify(ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities'] ?? null) }] }));
  server.registerTool('noisy', { description: 'Logs, then answers', inputSchema: z.object({}) }, async (_args, ctx) => {
    await ctx.mcpReq.log('info', 'working on it; token=ghp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerTool('leak', { description: 'Fails with a leaky message', inputSchema: z.object({}) }, async () => {
    throw new Error('connect ECONNREFUSED 10.0.3.7:5432 at Pool.connect (/srv/app/node_modules/pg/lib/pool.js:45:11) password=hunter2');
  });
  return server;
};
const handler = toNodeHandler(createMcpHandler(factory, { legacy: 'reject' }));
const http = createServer((req, res) => handler(req, res));
http.listen(0, '127.0.0.1', () => console.log('listening ' + http.address().port));
