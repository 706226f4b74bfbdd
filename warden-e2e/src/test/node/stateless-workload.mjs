// A 2026-07-28 (stateless) client workload, in plain fetch (no SDK needed): tools/list, a call with
// progress, an elicitation round trip (input-required, then the answered round with its
// requestState), a resource subscription on a subscriptions/listen stream that receives an update,
// and a cancelled slow call. Written for server-everything behind warden gateway: one URL (a load
// balancer in front of replicas), or several, taken in turn per request (a round robin without
// one). Prints one JSON object: each step ok or failed with what it saw, the HTTP statuses seen,
// and how many answers said "session not found" or "unknown request state".
// Usage: node stateless-workload.mjs <url> [<url> ...]   (WORKLOAD_STEPS=elicitation,... runs only those;
//        WORKLOAD_HEADERS='{"X-API-Key":"…"}' adds headers to every request)
const urls = process.argv.slice(2);
if (urls.length === 0) {
  console.error('usage: node stateless-workload.mjs <url> [<url> ...]');
  process.exit(2);
}
const VERSION = '2026-07-28';
const CAPABILITIES = { elicitation: {}, sampling: {} };
const summary = { urls: urls.length, ok: false, steps: {}, statuses: {}, sessionNotFound: 0, unknownRequestState: 0 };
let turn = 0;
let ids = 0;

const envelope = (extra = {}) => ({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
  'io.modelcontextprotocol/clientInfo': { name: 'warden-stateless-workload', version: '1.0.0' },
  ...extra,
});

/** What an answer says, counted: the two refusals a client behind replicas must never see. */
function inspect(message) {
  const text = JSON.stringify(message?.error ?? '').toLowerCase();
  if (text.includes('session') && (text.includes('not found') || text.includes('does not exist'))) {
    summary.sessionNotFound++;
  }
  if (text.includes('requeststate is unknown') || text.includes('unknown request state')) {
    summary.unknownRequestState++;
  }
}

/**
 * One stateless request: POSTed to the next URL; the answer read from a JSON body or an event
 * stream (each message before the answer goes to onMessage). Resolves with {status, replica,
 * answer, messages}; answer is null when the stream ended (or was aborted) without one.
 */
async function request(method, params, { name, signal, onMessage, onHeaders } = {}) {
  const id = ++ids;
  const replica = turn++ % urls.length;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...JSON.parse(process.env.WORKLOAD_HEADERS ?? '{}'),
  };
  if (name !== undefined) headers['mcp-name'] = name;
  const response = await fetch(urls[replica], {
    method: 'POST', headers, signal, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  summary.statuses[response.status] = (summary.statuses[response.status] ?? 0) + 1;
  // Behind scripts/cluster's HAProxy, which replica answered (its own header, not Warden's).
  const served = response.headers.get('x-warden-replica');
  onHeaders?.(served);
  const type = response.headers.get('content-type') ?? '';
  const messages = [];
  let answer = null;
  if (type.includes('application/json')) {
    answer = await response.json();
  } else if (type.includes('text/event-stream')) {
    answer = await readStream(response, id, (m) => { messages.push(m); onMessage?.(m); });
  } else {
    await response.body?.cancel();
  }
  inspect(answer);
  return { status: response.status, replica, served, answer, messages };
}

/** The messages of an event stream until the answer to {@code id}; null if it ends first. */
async function readStream(response, id, onMessage) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return null;
      buffered += decoder.decode(value, { stream: true }).replaceAll('\r\n', '\n');
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
        if (!data) continue;
        const message = JSON.parse(data);
        if (message.id === id && ('result' in message || 'error' in message)) return message;
        onMessage(message);
      }
    }
  } catch (e) {
    if (e?.name === 'AbortError') return null;
    throw e;
  }
}

const call = (tool, args, options = {}, meta = {}) =>
  request('tools/call', { name: tool, arguments: args, _meta: envelope(meta) }, { name: tool, ...options });

// WORKLOAD_STEPS=a,b runs only those steps (to look at one alone).
const only = (process.env.WORKLOAD_STEPS ?? '').split(',').filter((s) => s);

async function step(name, fn) {
  if (only.length > 0 && !only.includes(name)) return;
  const started = Date.now();
  try {
    summary.steps[name] = { ok: false, ...(await fn()) };
  } catch (e) {
    summary.steps[name] = { ok: false, error: String(e?.message ?? e) };
  }
  summary.steps[name].ms = Date.now() - started;
}

await step('listTools', async () => {
  const r = await request('tools/list', { _meta: envelope() });
  const names = (r.answer?.result?.tools ?? []).map((t) => t.name);
  return { ok: names.includes('trigger-long-running-operation'), status: r.status, tools: names.length, error: r.answer?.error };
});

await step('progress', async () => {
  const r = await call('trigger-long-running-operation', { duration: 2, steps: 4 }, {}, { progressToken: 'workload-progress' });
  const progress = r.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
  const text = r.answer?.result?.content?.[0]?.text ?? '';
  return { ok: progress.length > 0 && text.includes('completed'), status: r.status, progress, text, error: r.answer?.error };
});

await step('elicitation', async () => {
  const first = await call('trigger-elicitation-request', {});
  const asked = first.answer?.result;
  if (asked?.resultType !== 'input_required') {
    return { status: first.status, first: first.answer };
  }
  const [key, question] = Object.entries(asked.inputRequests ?? {})[0] ?? [];
  const content = { name: 'Ada', check: true, firstLine: 'Once', email: 'ada@example.com', integer: 3, number: 1.5,
    enum: 'option1', date: '2026-01-01', untitledSingleSelectEnum: 'option1', untitledMultipleSelectEnum: ['option1'],
    titledSingleSelectEnum: 'option1', titledMultipleSelectEnum: ['option1'], legacyTitledEnum: 'option1' };
  const second = await request('tools/call', {
    name: 'trigger-elicitation-request', arguments: {}, requestState: asked.requestState,
    inputResponses: { [key]: { action: 'accept', content } }, _meta: envelope(),
  }, { name: 'trigger-elicitation-request' });
  const text = (second.answer?.result?.content ?? []).map((c) => c.text).join(' ');
  return {
    ok: question?.method === 'elicitation/create' && text.includes('User provided the requested information')
      && text.includes('Ada'),
    status: [first.status, second.status], replicas: [first.replica, second.replica], error: second.answer?.error,
  };
});

await step('subscription', async () => {
  const uri = 'demo://resource/static/document/architecture.md';
  const abort = new AbortController();
  let acknowledged;
  let updated;
  const acked = new Promise((resolve) => { acknowledged = resolve; });
  const update = new Promise((resolve) => { updated = resolve; });
  let listenServed = null;
  const listen = request('subscriptions/listen', { notifications: { resourceSubscriptions: [uri] }, _meta: envelope() }, {
    signal: abort.signal,
    onHeaders: (served) => { listenServed = served; },
    onMessage: (m) => {
      if (m.method === 'notifications/subscriptions/acknowledged') acknowledged(m.params);
      if (m.method === 'notifications/resources/updated' && m.params?.uri === uri) updated(m.params);
    },
  }).catch((e) => ({ error: String(e?.message ?? e) }));
  const ack = await Promise.race([acked, listen.then(() => null), sleep(10_000).then(() => null)]);
  if (!ack) {
    abort.abort();
    return { acknowledged: false, listen: await listen };
  }
  // server-everything sends updates once toggled on, per process: only the upstream connection that
  // holds the subscription (the gateway's first, declaring every asking capability: so does the
  // toggle) sends them, and among replicas the toggle must reach the listen's own replica.
  // Behind one balancer URL the toggle lands where the balancer sends it: when the balancer names
  // the replica (HAProxy's X-Warden-Replica), toggles elsewhere are not waited on, and the listen's
  // own replica is toggled once (a second toggle there would stop its updates).
  let got = null;
  let toggles = 0;
  let toggledListen = false;
  while (!got && !toggledListen && toggles < 3 * Math.max(urls.length, 3) + 2) {
    toggles++;
    const t = await call('toggle-subscriber-updates', {}, {}, {
      'io.modelcontextprotocol/clientCapabilities': { ...CAPABILITIES, roots: {} },
    });
    const known = listenServed !== null && t.served !== null;
    if (known && t.served !== listenServed) continue;
    toggledListen = known;
    got = await Promise.race([update, sleep(known ? 8_000 : 3_000).then(() => null)]);
  }
  abort.abort();
  const listened = await listen;
  return {
    ok: got !== null, acknowledged: ack.notifications?.resourceSubscriptions ?? [], toggles,
    status: listened.status, replica: listened.replica, listenServed,
  };
});

// Last: a cancelled call's upstream operation goes on until the gateway sees the stream closed (at
// its next write), and meanwhile a question from that upstream connection cannot be routed.
await step('cancel', async () => {
  const abort = new AbortController();
  let progressBeforeAbort = 0;
  const r = await call('trigger-long-running-operation', { duration: 30, steps: 30 }, {
    signal: abort.signal,
    onMessage: (m) => {
      if (m.method === 'notifications/progress' && ++progressBeforeAbort === 1) abort.abort();
    },
  }, { progressToken: 'workload-cancel' });
  // Then a quick call: the gateway still serves once the slow one is cancelled.
  const after = await call('echo', { message: 'after the cancel' });
  const echoed = after.answer?.result?.content?.[0]?.text ?? '';
  return {
    ok: r.answer === null && progressBeforeAbort === 1 && echoed.includes('after the cancel'),
    status: r.status, progressBeforeAbort, answeredAnyway: r.answer !== null, after: after.status,
  };
});

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

summary.ok = Object.values(summary.steps).every((s) => s.ok)
  && summary.sessionNotFound === 0 && summary.unknownRequestState === 0;
console.log(JSON.stringify(summary));
process.exit(0);
