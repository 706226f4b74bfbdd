// Starts an MCP server over stdio with the official TypeScript SDK client, lists its tools and
// makes the calls given; prints, as one JSON object, what the client received.
// Usage: node stdio-calls.mjs '{"scenario":{"name":"tool","arguments":{...}},...}' <command> [args...]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { capture as record } from './capture.mjs';

const [calls, command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
let stderr = '';
transport.stderr?.on('data', (chunk) => { stderr += chunk; });
const client = new Client({ name: 'warden-e2e', version: '1.0.0' });
const out = {};
const capture = (name, fn) => record(out, name, fn);
await capture('connect', () => client.connect(transport));
if (out.connect.ok) {
  out.serverVersion = client.getServerVersion();
  await capture('listTools', () => client.listTools());
  for (const [scenario, call] of Object.entries(JSON.parse(calls))) {
    await capture(scenario, () => client.callTool(call));
  }
  await client.close();
}
out.stderr = stderr;
console.log(JSON.stringify(out));
