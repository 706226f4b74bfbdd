// Replays requests to a stdio MCP server byte for byte and prints what came back, to check an
// audit finding by hand (docs/audit-findings-checked.md). Initializes first (protocol 2025-06-18),
// then writes each request as one line, waiting for its answer (or, for a notification or a line
// that is not JSON, a short pause); prints every line the server wrote, its stderr, and how long
// each answer took.
//   node stdio-probe.mjs '<JSON array of requests; a string is written as a raw line>' -- CMD ARGS…
// A request without "jsonrpc" gets "jsonrpc":"2.0"; one without "id" is a notification unless it
// has "method" and "params" under "call": {"call":"tool","arguments":{…}} is a tools/call.
import { spawn } from 'node:child_process';

const sep = process.argv.indexOf('--');
const requests = JSON.parse(process.argv[2]);
const [command, ...args] = process.argv.slice(sep + 1);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
let stderr = '';
child.stderr.on('data', (d) => { stderr += d; });
const lines = [];
const waiters = new Map();
let buffer = '';
child.stdout.on('data', (d) => {
  buffer += d;
  let i;
  while ((i = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    lines.push(line);
    let message;
    try { message = JSON.parse(line); } catch { continue; }
    if (message && message.id !== undefined && waiters.has(JSON.stringify(message.id))) {
      waiters.get(JSON.stringify(message.id))(message);
    }
  }
});
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const send = async (request, timeoutMs = 30000) => {
  const started = process.hrtime.bigint();
  if (typeof request === 'string') {
    child.stdin.write(request + '\n');
    await pause(500);
    return { raw: request, ms: Number((process.hrtime.bigint() - started) / 1000000n) };
  }
  const message = request.call
    ? { jsonrpc: '2.0', id: request.id ?? `probe-${Math.random()}`, method: 'tools/call',
        params: { name: request.call, arguments: request.arguments ?? {} } }
    : { jsonrpc: '2.0', ...request };
  if (message.id === undefined) {
    child.stdin.write(JSON.stringify(message) + '\n');
    await pause(200);
    return { notification: message.method };
  }
  const answer = new Promise((resolve) => {
    waiters.set(JSON.stringify(message.id), resolve);
    setTimeout(() => resolve({ timedOut: timeoutMs }), timeoutMs);
  });
  child.stdin.write(JSON.stringify(message) + '\n');
  const response = await answer;
  return { request: message, response, ms: Number((process.hrtime.bigint() - started) / 1000000n) };
};

const out = [];
out.push(await send({ id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18',
  capabilities: {}, clientInfo: { name: 'stdio-probe', version: '1.0.0' } } }));
await send({ method: 'notifications/initialized' });
for (const request of requests) out.push(await send(request));
child.stdin.end();
await pause(300);
child.kill();
console.log(JSON.stringify({ exchanges: out.slice(1), otherLines: lines.filter((l) => {
  try { const m = JSON.parse(l); return m.id === undefined; } catch { return true; }
}), stderr }, null, 1));
process.exit(0);
