// Lists the tools at <url> and calls one with the official TypeScript SDK client; prints, as one
// JSON object, what it received. Usage: node call-tool.mjs <url> <tool> '<json arguments>'
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { capture as record } from './capture.mjs';

const [url, tool, args] = process.argv.slice(2);
const client = new Client({ name: 'warden-e2e', version: '1.0.0' });
const out = {};
const capture = (name, fn) => record(out, name, fn);
await capture('connect', () => client.connect(new StreamableHTTPClientTransport(new URL(url))));
if (out.connect.ok) {
  out.serverVersion = client.getServerVersion();
  await capture('listTools', () => client.listTools());
  await capture('call', () => client.callTool({ name: tool, arguments: JSON.parse(args ?? '{}') }));
  await client.close();
}
console.log(JSON.stringify(out));
