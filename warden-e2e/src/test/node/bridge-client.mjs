// A client of the session-based versions (the official TypeScript SDK v1) that talks to whatever
// server is at <url> and prints, as one JSON object, what it received: tools, calls, the
// elicitation requests it was asked, and the log messages it got. Usage: node bridge-client.mjs <url>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { capture as record } from './capture.mjs';

const client = new Client({ name: 'warden-e2e-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
const transport = new StreamableHTTPClientTransport(new URL(process.argv[2]));
const out = { elicitations: [], logs: [] };
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  out.elicitations.push(request.params);
  return { action: 'accept', content: { yes: true } };
});
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { out.logs.push(n.params); });
const capture = (name, fn) => record(out, name, fn);
const call = (name, args) => client.callTool({ name, arguments: args });
await client.connect(transport);
out.protocolVersion = transport.protocolVersion ?? null;
out.serverVersion = client.getServerVersion();
out.capabilities = client.getServerCapabilities();
await capture('setLevel', () => client.setLoggingLevel('debug'));
await capture('listTools', () => client.listTools());
await capture('echo', () => call('echo', { message: 'across the versions' }));
await capture('confirm', () => call('confirm', {}));
await capture('clientCapabilities', () => call('capabilities', {}));
await capture('noisy', () => call('noisy', {}));
await capture('leak', () => call('leak', {}));
await capture('unknown', () => call('no_such_tool', {}));
await capture('ping', () => client.ping());
await client.close();
console.log(JSON.stringify(out));
