// The official TypeScript SDK client over Streamable HTTP presenting a bearer token it was given
// (a client_credentials token from the test's authorization server) on every request, running a
// list of requests and printing, as one JSON object, what it received. For the tests that compare
// what an authorized caller gets through differently configured servers.
//
// Usage: node bearer-client.mjs URL '[{"name": "...", "method": "tools/list", "params": {...}}, ...]'
// Env: BEARER  the access token (none: no Authorization header)
// Stdout: {"connect": {ok, error?}, "sessionId": ..., "steps": {NAME: {"result": ...} | {"error":
//   {name, code, message, data}}}}; the token is never printed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';

const [url, stepsJson = '[]'] = process.argv.slice(2);
const headers = process.env.BEARER ? { Authorization: `Bearer ${process.env.BEARER}` } : {};
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
const client = new Client({ name: 'warden-e2e-bearer', version: '1.0.0' });
const errorOf = (e) => ({ name: e?.constructor?.name, code: e?.code, message: e?.message, data: e?.data });

function perform(method, params) {
  switch (method) {
    case 'tools/list': return client.listTools(params);
    case 'tools/call': return client.callTool(params);
    case 'prompts/list': return client.listPrompts(params);
    case 'resources/list': return client.listResources(params);
    default: return client.request({ method, params }, ResultSchema);
  }
}

const out = { steps: {} };
try {
  await client.connect(transport);
  out.connect = { ok: true };
} catch (e) {
  out.connect = { ok: false, error: errorOf(e) };
}
if (out.connect.ok) {
  out.sessionId = transport.sessionId ?? null;
  for (const { name, method, params } of JSON.parse(stepsJson)) {
    try {
      out.steps[name] = { result: await perform(method, params) };
    } catch (e) {
      out.steps[name] = { error: errorOf(e) };
    }
  }
  await client.close();
}
console.log(JSON.stringify(out));
