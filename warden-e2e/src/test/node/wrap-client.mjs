// Drives server-everything with the official TypeScript SDK client, directly or through
// `warden wrap`, and prints as one JSON object what the client received in each scenario.
// Usage: node wrap-client.mjs <command> [args...]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { capture as record } from './capture.mjs';

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, stderr: 'pipe', env: { ...process.env } });
let stderr = '';
transport.stderr?.on('data', (chunk) => { stderr += chunk; });
const client = new Client({ name: 'warden-e2e', version: '1.0.0' });
const out = {};

const capture = (name, fn) => record(out, name, fn);
const call = (name, args, options) => client.callTool({ name, arguments: args }, undefined, options);

await client.connect(transport);
out.serverVersion = client.getServerVersion();
await capture('listTools', () => client.listTools());
await capture('echo', () => call('echo', { message: 'hello through warden' }));
await capture('sum', () => call('get-sum', { a: 2, b: 3 }));
await capture('badArguments', () => call('get-sum', { a: 'not-a-number-probe', b: 3 }));
await capture('unknownTool', () => call('drop_tables_probe_tool', {}));
await capture('env', () => call('get-env', {}));
await capture('missingResource', () => client.readResource({ uri: 'demo://resource/static/document/missing-probe.md' }));
const progress = [];
await capture('progress', () => call('trigger-long-running-operation', { duration: 1, steps: 2 }, {
  onprogress: (p) => progress.push(p),
}));
out.progressNotifications = progress;
const controller = new AbortController();
const started = Date.now();
await capture('cancelled', () => call('trigger-long-running-operation', { duration: 30, steps: 30 }, {
  signal: controller.signal, onprogress: () => controller.abort('user cancelled'),
}));
out.cancelledAfterMs = Date.now() - started;
await capture('afterCancel', () => call('echo', { message: 'still here' }));
await client.close();
out.stderr = stderr;
console.log(JSON.stringify(out));
