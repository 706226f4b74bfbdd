// Drives an MCP server with the official TypeScript SDK client and prints, as one JSON object,
// exactly what the client received in each scenario. The Java tests assert on it.
// Usage: node sdk-client.mjs <command> [args...]      (stdio: launches the server)
//        node sdk-client.mjs --http <url>             (Streamable HTTP)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { capture as record } from './capture.mjs';

const [command, ...args] = process.argv.slice(2);
const transport = command === '--http'
  ? new StreamableHTTPClientTransport(new URL(args[0]))
  : new StdioClientTransport({ command, args, stderr: 'pipe' });
let stderr = '';
transport.stderr?.on('data', (chunk) => { stderr += chunk; });

const client = new Client({ name: 'warden-e2e', version: '1.0.0' });
const out = {};

const capture = (name, fn) => record(out, name, fn);

const call = (name, args, options) => client.callTool({ name, arguments: args }, undefined, options);

await client.connect(transport);
out.serverVersion = client.getServerVersion();
out.protocolVersion = transport.protocolVersion ?? null;
await capture('listTools', () => client.listTools());
await capture('success', () => call('fetch_document', { id: 'doc-1' }));
await capture('createUser', () => call('create_user', { name: 'Grace Hopper', email: 'grace@example.com', role: 'editor', age: 85 }));
await capture('validation', () => call('create_user', {
  name: '', email: 'not-an-email', role: 'root', age: 7, secretProbe: 'sk_live_probe_value_123',
  address: { country: 'usa', zz_injected_key: 1 },
}));
await capture('notFound', () => call('fetch_document', { id: 'doc-404' }));
await capture('permissionDenied', () => call('fetch_document', { id: 'doc-2' }));
await capture('conflict', () => call('create_user', { name: 'Ada Again', email: 'ada@example.com', role: 'viewer' }));
await capture('rateLimited1', () => call('search_catalog', { query: 'lamp' }));
await capture('rateLimited2', () => call('search_catalog', { query: 'desk' }));
await capture('rateLimited3', () => call('search_catalog', { query: 'chair' }));
await capture('internal', () => call('generate_report', { quarter: 'Q3' }));
await capture('unknownTool', () => call('drop_tables_probe_tool', {}));
await capture('loginUnknownUser', () => call('login', { email: 'nobody@example.com', password: 'x' }));
await capture('loginWrongPassword', () => call('login', { email: 'ada@example.com', password: 'wrong' }));
await capture('loginOk', () => call('login', { email: 'ada@example.com', password: 'correct horse battery staple' }));

const progress = [];
await capture('progress', () => call('long_task', { steps: 3, stepMillis: 20 }, {
  onprogress: (p) => progress.push(p),
}));
out.progressNotifications = progress;

const controller = new AbortController();
const cancelled = call('long_task', { steps: 1000, stepMillis: 50 }, {
  signal: controller.signal, onprogress: () => controller.abort('user cancelled'),
});
await capture('cancelled', () => cancelled);
await capture('pingAfterCancel', () => client.ping());
await capture('successAfterCancel', () => call('fetch_document', { id: 'doc-3' }));

out.sessionId = transport.sessionId ?? null;
if (command === '--http') {
  await transport.terminateSession();
}
await client.close();
out.stderrHasIncidents = stderr.includes('"type":"incident"');
process.stdout.write(JSON.stringify(out) + '\n');
