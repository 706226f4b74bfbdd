// Replays the harvested corpus (warden-core/src/test/resources/harvested-corpus) as an MCP server on
// the official TypeScript SDK's low-level Server, in every shape servers deliver a failure in:
//   message  a JSON-RPC error -32603 whose message is the text
//   data     a JSON-RPC error -32603 "Internal error" with the detail as an object in data
//   legacy   a JSON-RPC error -32000 "Tool execution failed" with the detail in data
//   isError  an isError result whose text block is the text
//   double   an isError result whose text block is the text JSON-encoded once more
//   log      a notifications/message (level error) carrying the detail, then a plain result
//   result   (benign samples) the successful result as the server sent it
//   ok       a plain success of the tool (the client's filler, see corpus-client.mjs)
// The client picks the next answer with the tool `replay_select` {id, shape}, then calls the
// sample's own tool with the caller's own arguments (so what the caller sent is exactly that).
//
// With --tools SHAPE every sample is a tool of its own, named by its id, that answers every call with
// its sample in SHAPE: a server an auditor can drive without knowing the corpus. Each tool's input
// schema holds the caller's own arguments as the defaults of required properties, so a schema-driven
// client's baseline call sends exactly what the harvested caller sent. Defaults, not enum values: a
// gateway counts a definition's enum values as told to every client, and the sample's identifiers
// must stay the caller's alone.
//
// Usage: node replay-server.mjs <harvested.jsonl>
//        node replay-server.mjs --tools SHAPE <harvested.jsonl>
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const toolsShape = process.argv[2] === '--tools' ? process.argv[3] : null;
const corpus = toolsShape ? process.argv[4] : process.argv[2];
const samples = new Map(readFileSync(corpus, 'utf8').split('\n').filter((l) => l.trim())
  .map((l) => JSON.parse(l)).map((s) => [s.id, s]));
const toolNames = [...new Set([...samples.values()].map((s) => s.tool))];
const server = new Server({ name: 'replay', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
let next = null;

const textOf = (raw) => (typeof raw === 'string' ? raw : JSON.stringify(raw));
const rpcError = (code, message, data) => Object.assign(new Error(message), { code, ...(data !== undefined && { data }) });

const jsonType = (value) => (Array.isArray(value) ? 'array' : value === null ? 'null'
  : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value);
const sampleTool = (sample) => {
  const caller = sample.caller ?? {};
  const properties = Object.fromEntries(Object.entries(caller)
    .map(([key, value]) => [key, { type: jsonType(value), default: value }]));
  return { name: sample.id, description: `Replays ${sample.source}: ${sample.category}`,
    inputSchema: { type: 'object', properties, required: Object.keys(caller) } };
};

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: toolsShape ? [...samples.values()].map(sampleTool)
    : [{ name: 'replay_select', inputSchema: { type: 'object', properties: { id: { type: 'string' }, shape: { type: 'string' } } } },
      ...toolNames.map((name) => ({ name, inputSchema: { type: 'object' } }))],
}));

const answer = async (sample, shape) => {
  const raw = sample.raw;
  const text = textOf(raw);
  switch (shape) {
    case 'message': throw rpcError(-32603, text);
    case 'data': throw rpcError(-32603, 'Internal error', typeof raw === 'object' && raw !== null ? raw : { error: raw });
    case 'legacy': throw rpcError(-32000, 'Tool execution failed', raw);
    case 'isError': return { content: [{ type: 'text', text }], isError: true };
    case 'double': return { content: [{ type: 'text', text: JSON.stringify(text) }], isError: true };
    case 'log':
      await server.sendLoggingMessage({ level: 'error', logger: sample.tool, data: raw });
      return { content: [{ type: 'text', text: 'done' }] };
    case 'result': return { content: [{ type: 'text', text }] };
    case 'ok': return { content: [{ type: 'text', text: 'ok' }] };
    default: throw rpcError(-32602, `no shape ${shape}`);
  }
};

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (toolsShape) {
    const sample = samples.get(name);
    if (!sample) throw rpcError(-32602, 'Unknown tool');
    return answer(sample, toolsShape);
  }
  if (name === 'replay_select') {
    next = { sample: samples.get(args.id), shape: args.shape };
    if (!next.sample) throw rpcError(-32602, `no sample ${args.id}`);
    return { content: [{ type: 'text', text: 'selected' }] };
  }
  const { sample, shape } = next;
  next = null;
  return answer(sample, shape);
});

await server.connect(new StdioServerTransport());
