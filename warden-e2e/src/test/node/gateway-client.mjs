// Drives `warden gateway` over Streamable HTTP with the official TypeScript SDK client and prints,
// as one JSON object, what the client received. Usage: node gateway-client.mjs <url>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { capture as record } from './capture.mjs';

const client = new Client({ name: 'warden-e2e', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(process.argv[2]));
const out = {};
const capture = (name, fn) => record(out, name, fn);
const call = (name, args) => client.callTool({ name, arguments: args });
await client.connect(transport);
out.serverVersion = client.getServerVersion();
out.capabilities = client.getServerCapabilities();
await capture('listTools', () => client.listTools());
await capture('echo', () => call('everything__echo', { message: 'through the gateway' }));
await capture('leakyEcho', () => call('leaky__echo', { message: 'second upstream' }));
await capture('leak', () => call('leaky__node_error', {}));
await capture('denied', () => call('everything__get-env', {}));
await capture('unknownUpstream', () => call('nobody__echo', { message: 'x' }));
await capture('unprefixed', () => call('echo', { message: 'x' }));
await capture('hang', () => call('leaky__hang', {}));
await capture('afterHang', () => call('everything__echo', { message: 'still up' }));
await client.close();
console.log(JSON.stringify(out));
