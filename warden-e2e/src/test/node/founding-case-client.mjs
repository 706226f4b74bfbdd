// The official TypeScript SDK client over Streamable HTTP: calls each tool named, once with no
// arguments and once with the given ones, and prints, as one JSON object keyed "<tool> {}" and
// "<tool> given", what it received (a result, or the JSON-RPC error it threw).
// Usage: node founding-case-client.mjs <url> '<json arguments>' <tool>...
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { capture as record } from './capture.mjs';

const [url, given, ...tools] = process.argv.slice(2);
const client = new Client({ name: 'warden-e2e', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const out = {};
for (const tool of tools) {
  await record(out, `${tool} {}`, () => client.callTool({ name: tool, arguments: {} }));
  await record(out, `${tool} given`, () => client.callTool({ name: tool, arguments: JSON.parse(given) }));
}
await client.close();
console.log(JSON.stringify(out));
