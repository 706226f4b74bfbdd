// A client of the 2026-07-28 (stateless) revision, pinned to it: the official TypeScript SDK v2.
// It talks to whatever server is at <url> and prints, as one JSON object, what it received.
// Usage: node modern-client.mjs <url> [bare]   (bare: declares no capabilities, and only lists the tools)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { capture as record } from './capture.mjs';

const bare = process.argv[3] === 'bare';
const client = new Client({ name: 'warden-e2e-v2', version: '2.0.0' }, {
  capabilities: bare ? {} : { elicitation: {}, sampling: {} },
  versionNegotiation: { mode: { pin: '2026-07-28' } },
});
const out = { elicitations: [], samplings: [] };
if (!bare) client.setRequestHandler('elicitation/create', async (request) => {
  out.elicitations.push(request.params);
  return { action: 'accept', content: { name: 'Ada', check: true, firstLine: 'Once', email: 'ada@example.com',
    integer: 3, number: 1.5, enum: 'option1', date: '2026-01-01', untitledSingleSelectEnum: 'option1',
    untitledMultipleSelectEnum: ['option1'], titledSingleSelectEnum: 'option1', titledMultipleSelectEnum: ['option1'],
    legacyTitledEnum: 'option1' } };
});
if (!bare) client.setRequestHandler('sampling/createMessage', async (request) => {
  out.samplings.push(request.params);
  return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled reply' } };
});
const capture = (name, fn) => record(out, name, fn);
const call = (name, args) => client.callTool({ name, arguments: args });
await capture('connect', () => client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2]))));
out.protocolVersion = client.getNegotiatedProtocolVersion?.() ?? null;
out.serverVersion = client.getServerVersion() ?? null;
await capture('listTools', () => client.listTools());
if (bare) {
  await client.close();
  console.log(JSON.stringify(out));
  process.exit(0);
}
await capture('echo', () => call('echo', { message: 'from the newest version' }));
await capture('sum', () => call('get-sum', { a: 2, b: 3 }));
await capture('elicit', () => call('trigger-elicitation-request', {}));
await capture('sample', () => call('trigger-sampling-request', { prompt: 'hello', maxTokens: 10 }));
await capture('unknown', () => call('no_such_tool', {}));
await capture('listResources', () => client.listResources());
await capture('readResource', () => client.readResource({ uri: 'demo://resource/static/document/architecture.md' }));
await client.close();
console.log(JSON.stringify(out));
