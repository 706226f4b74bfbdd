// Lists the tools at <url> and calls one with the official TypeScript SDK client; prints, as one
// JSON object, what it received. Usage: node call-tool.mjs <url> <tool> '<json arguments>'
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, tool, args] = process.argv.slice(2);
const client = new Client({ name: 'warden-e2e', version: '1.0.0' });
const out = {};
async function capture(name, fn) {
  try {
    out[name] = { ok: true, value: await fn() };
  } catch (e) {
    out[name] = { ok: false, error: { name: e?.constructor?.name, code: e?.code, message: e?.message, data: e?.data } };
  }
}
await capture('connect', () => client.connect(new StreamableHTTPClientTransport(new URL(url))));
if (out.connect.ok) {
  out.serverVersion = client.getServerVersion();
  await capture('listTools', () => client.listTools());
  await capture('call', () => client.callTool({ name: tool, arguments: JSON.parse(args ?? '{}') }));
  await client.close();
}
console.log(JSON.stringify(out));
