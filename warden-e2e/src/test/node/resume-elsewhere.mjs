// The official TypeScript SDK client in one session across two live gateway replicas, resuming a
// call's stream on the replica that does not serve it. Usage: node resume-elsewhere.mjs <url of A> <url of B>
// 1. blip: a slow call with progress runs on A; after its first progress the connection to A is cut
//    once (the body the SDK reads errors, and the real one is cancelled); from then on the fetch sends
//    everything to B, as a balancer would. The SDK resumes with Last-Event-ID on B.
// 2. abort: a slow call on A is aborted (AbortController) at its first progress; its stream ends
//    without an answer and the SDK resumes it; GETs go to B.
// Prints, as one JSON object: what each call gave, every request (phase, method, Last-Event-ID, replica,
// status, when) and every error the SDK reported.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { capture as record } from './capture.mjs';

const [a, b] = [new URL(process.argv[2]), new URL(process.argv[3])];
const started = Date.now();
const requests = [];
const errors = [];
let phase = 'connect';
let route = () => 'a';
let cutArmed = false; // the next slow call's stream is cut once, after the SDK saw its first progress
let sdkSawProgress = false;

/** A body that passes A's events through until the SDK has seen a progress, then fails like a broken network. */
function cutOnce(body) {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) {
        controller.close();
      } else if (sdkSawProgress) {
        await reader.cancel(); // the real connection to A goes too
        route = () => 'b';
        controller.error(new TypeError('network blip'));
      } else {
        controller.enqueue(value);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** A body whose end is recorded on its request. */
function watched(body, entry) {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          entry.endedAt = Date.now() - started;
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (e) {
        entry.endedAt = Date.now() - started;
        controller.error(e);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

async function balancer(url, init) {
  const method = init?.method ?? 'GET';
  const lastEventId = new Headers(init?.headers).get('last-event-id');
  const to = route(method);
  const target = new URL(url);
  target.port = (to === 'a' ? a : b).port;
  const entry = { phase, method, lastEventId, to, at: Date.now() - started };
  requests.push(entry);
  const response = await fetch(target, init);
  entry.status = response.status;
  entry.answeredAt = Date.now() - started;
  if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return response;
  }
  let body = response.body;
  if (method === 'POST' && cutArmed && String(init.body).includes('tools/call')) {
    cutArmed = false;
    body = cutOnce(body);
  }
  return new Response(watched(body, entry), { status: response.status, statusText: response.statusText,
    headers: response.headers });
}

async function until(condition, ms) {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

const client = new Client({ name: 'warden-e2e-resume-elsewhere', version: '1.0.0' });
client.onerror = (e) => errors.push({ phase, message: String(e?.message ?? e), at: Date.now() - started });
const transport = new StreamableHTTPClientTransport(a, { fetch: balancer });
const out = {};
const capture = (name, fn) => record(out, name, fn);
await client.connect(transport);
const sessionAtStart = transport.sessionId;

phase = 'blip';
cutArmed = true;
await capture('blip', () => client.callTool(
  { name: 'trigger-long-running-operation', arguments: { duration: 4, steps: 4 } },
  undefined,
  { timeout: 60000, onprogress: () => { sdkSawProgress = true; } }));

phase = 'abort';
route = (method) => (method === 'GET' ? 'b' : 'a');
const abort = new AbortController();
await capture('abort', () => client.callTool(
  { name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } },
  undefined,
  { timeout: 60000, signal: abort.signal, onprogress: () => abort.abort('the user gave up') }));
out.abortedAt = Date.now() - started;
// The SDK resumes the aborted call's stream (after the server's retry delay), then, the stream over,
// opens a plain GET stream: wait for both to be answered.
const resumed = () => requests.find((r) => r.phase === 'abort' && r.lastEventId && r.endedAt !== undefined);
const reopened = () => requests.find((r) => r.phase === 'abort' && r.method === 'GET' && !r.lastEventId
  && r.status !== undefined);
out.abortResumeSeen = await until(() => Boolean(resumed() && reopened()), 20000);

phase = 'after';
await capture('again', () => client.callTool(
  { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 1 } }));
out.sameSession = transport.sessionId === sessionAtStart;
out.requests = requests;
out.errors = errors;
await client.close();
console.log(JSON.stringify(out));
process.exit(0);
