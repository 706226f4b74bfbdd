// A session-based client's scripted workload, with the official TypeScript SDK, against one MCP
// endpoint (a load balancer in front of several gateway replicas, in the acceptance run): listings,
// a call with progress, a cancelled call, an elicitation round trip, a log level, a resource
// subscription and its update. Prints one JSON object: each step's outcome, every HTTP status the
// client saw (a 404 is the "session not found" this run exists to rule out) and the session id.
// Usage: node session-workload.mjs <url> [--rounds N]    (WORKLOAD_HEADERS='{"X-API-Key":"…"}' adds headers)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema, LoggingMessageNotificationSchema }
  from '@modelcontextprotocol/sdk/types.js';

const url = new URL(process.argv[2]);
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 1;

const statuses = {};
const notFound = [];
const badResumes = [];
const began = Date.now();
// Every request the SDK makes goes through here: the status of each is counted, and a 404 on a
// request carrying the session id is recorded with its method.
const countingFetch = async (input, init) => {
  const response = await fetch(input, init);
  const key = `${init?.method ?? 'GET'} ${response.status}`;
  statuses[key] = (statuses[key] ?? 0) + 1;
  if (response.status === 400 && (init?.method ?? 'GET') === 'GET') {
    const lastEventId = init?.headers instanceof Headers ? init.headers.get('last-event-id') : null;
    badResumes.push({ at: Date.now() - began, lastEventId, body: (await response.clone().text()).slice(0, 200) });
  }
  if (response.status === 404) {
    notFound.push({ method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? init.body.slice(0, 120) : null });
  }
  return response;
};

const transport = new StreamableHTTPClientTransport(url, {
  fetch: countingFetch, requestInit: { headers: JSON.parse(process.env.WORKLOAD_HEADERS ?? '{}') },
});
const client = new Client({ name: 'warden-session-workload', version: '1.0.0' },
  { capabilities: { elicitation: {} } });
const elicitations = [];
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  elicitations.push(request.params.message);
  return { action: 'accept', content: { name: 'Ada Lovelace' } };
});
const updates = [];
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri));
const logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params.level));
const errors = [];
client.onerror = (e) => errors.push(String(e?.message ?? e).slice(0, 200));

const steps = [];
const step = async (name, fn) => {
  const started = Date.now();
  try {
    const detail = await fn();
    steps.push({ name, ok: true, ms: Date.now() - started, ...(detail ?? {}) });
  } catch (e) {
    steps.push({ name, ok: false, ms: Date.now() - started, error: String(e?.message ?? e).slice(0, 300) });
  }
};
const call = (name, args, options) => client.callTool({ name, arguments: args }, undefined, options);
const text = (result) => (result.content ?? []).map((c) => c.text ?? '').join('\n');
const until = async (condition, millis) => {
  const deadline = Date.now() + millis;
  while (!condition() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
};

await step('connect', async () => {
  await client.connect(transport);
  return { protocolVersion: transport.protocolVersion ?? null };
});

for (let round = 1; round <= rounds; round++) {
  await step('listTools', async () => ({ tools: (await client.listTools()).tools.length }));
  await step('listResources', async () => ({ resources: (await client.listResources()).resources.length }));
  await step('echo', async () => {
    const result = await call('echo', { message: `round ${round}` });
    if (!text(result).includes(`round ${round}`)) throw new Error(`unexpected echo: ${text(result)}`);
  });
  await step('progress', async () => {
    const seen = [];
    const result = await call('trigger-long-running-operation', { duration: 1, steps: 4 },
      { onprogress: (p) => seen.push(p.progress) });
    if (result.isError) throw new Error(text(result));
    if (seen.length < 1) throw new Error('no progress notification');
    return { progress: seen.length };
  });
  await step('cancel', async () => {
    const controller = new AbortController();
    const started = Date.now();
    let outcome;
    try {
      await call('trigger-long-running-operation', { duration: 60, steps: 60 },
        { signal: controller.signal, onprogress: () => controller.abort('cancelled by the workload') });
      outcome = 'completed';
    } catch (e) {
      outcome = String(e?.message ?? e).slice(0, 120);
    }
    if (outcome === 'completed') throw new Error('the cancelled call completed');
    // The session goes on: the next request is answered.
    await client.ping();
    return { outcome, ms: Date.now() - started };
  });
  await step('elicitation', async () => {
    const before = elicitations.length;
    const result = await call('trigger-elicitation-request', {});
    if (elicitations.length !== before + 1) throw new Error('the elicitation did not reach the client');
    if (!text(result).includes('Ada Lovelace')) throw new Error(`the answer did not reach the tool: ${text(result).slice(0, 200)}`);
  });
  await step('setLevel', async () => {
    await client.setLoggingLevel('debug');
  });
}

const subscribed = 'demo://resource/static/document/architecture.md';
await step('subscribe', async () => {
  await client.subscribeResource({ uri: subscribed });
  // The server-everything tool that starts sending updates for this session's subscriptions
  // (one now, then every 5 s).
  const toggled = await call('toggle-subscriber-updates', {});
  if (toggled.isError) throw new Error(`the toggle failed: ${text(toggled).slice(0, 200)}`);
  if (!(await until(() => updates.includes(subscribed), 15000))) {
    throw new Error(`no notifications/resources/updated within 15 s (toggle: ${text(toggled).slice(0, 80)})`);
  }
  return { updates: updates.length };
});
await step('unsubscribe', async () => {
  await client.unsubscribeResource({ uri: subscribed });
});

const sessionId = transport.sessionId ?? null;
await step('close', async () => {
  await transport.terminateSession();
  await client.close();
});

console.log(JSON.stringify({
  sessionId: sessionId ? `${sessionId.slice(0, 8)}…(${sessionId.length})` : null,
  steps, statuses, notFound, badResumes, elicitations: elicitations.length, updates: updates.length, logs: logs.length, errors,
}, null, 1));
