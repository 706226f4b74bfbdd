// Calls the console test's upstream through `warden gateway` with the official TypeScript SDK client,
// successes and failures both; prints, as one JSON object, the tools it was shown and each result.
// Usage: node console-calls.mjs <url>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
// the upstream's tool whose name carries markup (console-server.mjs)
const SCRIPT_TOOL = '<script>alert(1)</script>';

const client = new Client({ name: 'console-e2e', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));
const out = { tools: (await client.listTools()).tools.map(t => t.name), results: [] };
const calls = [['lookup', { q: 'ada' }], ['lookup', { q: 'grace' }], ['lookup', { q: 'alan' }], ['fail', {}],
  ['fail', {}], [SCRIPT_TOOL, {}], [SCRIPT_TOOL, { fail: true }]];
for (const [name, args] of calls) {
  out.results.push({ name, result: await client.callTool({ name, arguments: args }) });
}
await client.close();
console.log(JSON.stringify(out));
