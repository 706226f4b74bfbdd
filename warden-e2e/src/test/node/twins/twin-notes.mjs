// The JavaScript authorization twin of docs/audit-twins.md, on the official TypeScript SDK over
// Streamable HTTP: two callers, each known by an API key sent as "Authorization: Bearer KEY", each
// owning notes. Vulnerable (by default): twin_get_note returns any note by its id. With --safe, a
// note another caller owns is answered as not found. Prints "PORT n" once listening.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';
import { failure, safe, text } from './twin-common.mjs';

const callers = { 'twin-key-alice-3f9a71': 'alice', 'twin-key-bob-8c2d44': 'bob' };
const notes = {
  'note-1001': { owner: 'alice', text: 'Renewal quote for Initech: cnry_note_alice_71b4' },
  'note-2001': { owner: 'bob', text: 'Salary review draft: cnry_note_bob_9e0a' },
};

function serverFor(caller) {
  const server = new McpServer({ name: 'acme-notes', version: '1.0.0' });
  server.registerTool('twin_list_notes', { description: 'Lists the ids of your notes.', inputSchema: {} },
    async () => text(Object.entries(notes).filter(([, n]) => n.owner === caller).map(([id]) => id).join('\n')));
  server.registerTool('twin_get_note', { description: 'Returns one of your notes by its id (see twin_list_notes).',
    inputSchema: { note_id: z.string() } }, async ({ note_id: id }) => {
    const note = notes[id];
    if (!note || (safe && note.owner !== caller)) {
      return failure('No note with that id.');
    }
    return text(note.text);
  });
  return server;
}

const http = createServer(async (req, res) => {
  const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  const caller = callers[key];
  if (!caller) {
    res.writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Unauthorized' } }));
    return;
  }
  if (new URL(req.url, 'http://127.0.0.1').pathname !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = serverFor(caller);
  res.on('close', () => { transport.close(); server.close(); });
  await server.connect(transport);
  await transport.handleRequest(req, res);
});

http.listen(0, '127.0.0.1', () => console.log(`PORT ${http.address().port}`));
