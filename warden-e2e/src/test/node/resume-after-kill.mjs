// The official TypeScript SDK client in one session across two gateway replicas, the first of which
// is killed in the middle of a slow call. Usage: node resume-after-kill.mjs <url of A> <url of B>
// Protocol with the Java test: prints {"event":"progress"} at the call's first progress, then holds
// every new request until a line "killed" arrives on stdin (A is gone by then); from then on its
// fetch sends to B what the SDK addresses to A (as a load balancer would). At the end prints, as one
// JSON object, what the slow call and the call after it gave, and whether the session stayed the same.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { capture as record } from './capture.mjs';
import { createInterface } from 'node:readline';

const [a, b] = [new URL(process.argv[2]), new URL(process.argv[3])];
let progressed = false;
let killed;
const killedNow = new Promise((resolve) => { killed = resolve; });
createInterface({ input: process.stdin }).on('line', (line) => { if (line.trim() === 'killed') killed(); });

async function balancer(url, init) {
  if (progressed) {
    await killedNow;
    const moved = new URL(url);
    moved.port = b.port;
    url = moved;
  }
  return fetch(url, init);
}

const client = new Client({ name: 'warden-e2e-resume', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(a, { fetch: balancer });
const out = {};
const capture = (name, fn) => record(out, name, fn);
await client.connect(transport);
const sessionAtStart = transport.sessionId;
const started = Date.now();
await capture('slow', () => client.callTool(
  { name: 'trigger-long-running-operation', arguments: { duration: 60, steps: 60 } },
  undefined,
  {
    timeout: 60000,
    onprogress: () => {
      if (!progressed) {
        progressed = true;
        console.log(JSON.stringify({ event: 'progress' }));
      }
    },
  }));
out.slowSettledAfterMs = Date.now() - started;
await capture('again', () => client.callTool(
  { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 1 } }));
out.sameSession = transport.sessionId === sessionAtStart;
await client.close();
console.log(JSON.stringify(out));
process.exit(0);
