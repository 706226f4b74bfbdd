// An MCP server (the official TypeScript SDK's McpServer, over stdio) that records every tools/call
// it receives, name and arguments, one JSON line each, in the file given as its first argument (or
// in $WARDEN_RECORD_FILE). Its tools: some annotated destructiveHint, some whose names alone say they
// write, delete, send or pay, one whose readOnlyHint contradicts its name, and harmless read-only
// ones. What `warden audit` may call without --allow-destructive is the harmless ones only.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const record = process.argv[2] ?? process.env.WARDEN_RECORD_FILE;
if (!record) {
  console.error('usage: recording-server.mjs FILE (or WARDEN_RECORD_FILE=FILE)');
  process.exit(2);
}

const server = new McpServer({ name: 'recording', version: '1.0.0' });
const done = (text) => ({ content: [{ type: 'text', text }] });
const tool = (name, annotations, shape) => server.registerTool(name,
  { description: `The ${name} tool`, inputSchema: shape, ...(annotations ? { annotations } : {}) },
  async () => done(`${name}: done`));

// Annotated destructive; their names say nothing.
tool('archive_project', { destructiveHint: true }, { project: z.string() });
tool('tidy_workspace', { readOnlyHint: false, destructiveHint: true }, { scope: z.enum(['all', 'temp']) });
// Destructive by name alone, no annotations.
tool('delete_file', null, { path: z.string() });
tool('send_email', null, { to: z.string(), body: z.string() });
tool('pay_invoice', null, { invoice: z.string(), amount: z.number().min(0) });
tool('write_note', null, { title: z.string(), text: z.string() });
tool('purchaseItem', null, { sku: z.string(), quantity: z.number().int().min(1) });
tool('post_message', null, { channel: z.string(), text: z.string() });
tool('submit_order', null, { order: z.string() });
tool('cancel_subscription', null, { subscription: z.string() });
// A readOnlyHint the name contradicts: a hint from the server, not a promise.
tool('erase_draft', { readOnlyHint: true }, { draft: z.string() });
// Harmless.
tool('get_weather', { readOnlyHint: true }, { city: z.string() });
tool('search_notes', null, { query: z.string().max(100) });

const transport = new StdioServerTransport();
await server.connect(transport);
// Record what arrives, before the SDK looks at it: an unknown or malformed call is a call too.
const handle = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (message?.method === 'tools/call') {
    appendFileSync(record, JSON.stringify({ name: message.params?.name ?? null,
      arguments: message.params?.arguments ?? null }) + '\n');
  }
  handle(message, extra);
};
