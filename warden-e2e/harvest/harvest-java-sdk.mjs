// Drives the MCP server on the official MCP Java SDK (java-sdk-server/, built by
// scripts/harvest-corpus) and APPENDS its samples to the harvested corpus. The server's tools let
// the exception propagate; the SDK answers -32603 with getMessage() in error.message and the cause
// chain in error.data (a string), so each failure gives two samples: `-message` and `-data`, both
// verbatim, with the frame. Raw JSON lines on stdio: no client library between us and the bytes.
//
// Usage: node harvest-java-sdk.mjs <out.jsonl>   (the environment is scripts/harvest-corpus's)
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { corpus, SQL } from './corpus.mjs';

const env = process.env;
const out = process.argv[2];
const { samples, add } = corpus(JSON.parse(env.CANARIES));
const existing = new Set(readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).id));

// As an unprivileged user where one is named (RUN_AS), so the file system's permissions apply.
const java = ['java', ['-cp', env.JAVA_SDK_CLASSPATH, 'harvest.JavaSdkServer']];
const command = env.RUN_AS && process.getuid?.() === 0 ? ['runuser', ['-u', env.RUN_AS, '--', ...[java[0], ...java[1]]]] : java;
const child = spawn(command[0], command[1], { cwd: env.APP_DIR, env, stdio: ['pipe', 'pipe', 'inherit'] });
const pending = new Map();
// The SDK answers on its own threads: responses may come out of order, so they are matched by id.
createInterface({ input: child.stdout }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id !== undefined && pending.has(msg.id)) {
    pending.get(msg.id)({ line, msg });
    pending.delete(msg.id);
  }
});
let nextId = 1;
function rpc(method, params) {
  const id = nextId++;
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  return new Promise((resolve) => pending.set(id, resolve));
}
await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'harvest', version: '1' } });
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');

/** Calls a tool as a caller would and keeps every string the SDK put in what it sent for the failure. */
async function mcp(id, source, category, tool, caller, extra = {}) {
  const { line, msg } = await rpc('tools/call', { name: tool, arguments: caller });
  if (extra.benign) {
    if (msg.error || msg.result.isError) throw new Error(`benign ${id} failed: ${line}`);
    add({ id, source, category, tool, caller, raw: msg.result.content.map((c) => c.text).join('\n'), frame: line, ...extra });
    return;
  }
  if (!(msg.error || msg.result.isError)) throw new Error(`failure ${id} succeeded: ${line}`);
  const parts = msg.error
    ? [['message', msg.error.message], ['data', msg.error.data]]
    : [['text', msg.result.content.map((c) => c.text).join('\n')]];
  for (const [variant, raw] of parts) {
    if (raw === undefined) continue;
    add({ id: `${id}-${variant}`, source, category, tool, caller, raw, frame: line, ...extra });
  }
}

for (const kind of ['syntax', 'column', 'unique']) {
  await mcp(`java-sdk-pg-${kind}`, 'java-sdk/postgresql', 'database', 'pg_query', { sql: SQL[kind] });
}
await mcp('java-sdk-pg-auth', 'java-sdk/postgresql', 'database', 'pg_replica_query', { sql: 'SELECT 1' });
await mcp('java-sdk-fs-missing', 'java-sdk/filesystem', 'path', 'read_file', { path: 'reports/q3-summary.txt' },
  { keep: ['reports/q3-summary.txt'] });
await mcp('java-sdk-pg-ok', 'java-sdk/postgresql', 'benign', 'pg_query',
  { sql: 'SELECT id, email, name FROM customers ORDER BY id' }, { benign: true });
child.stdin.end();
child.kill();

const clash = samples.filter((s) => existing.has(s.id)).map((s) => s.id);
if (clash.length) throw new Error(`already in ${out}: ${clash.join(', ')} (remove them to re-harvest this step)`);
appendFileSync(out, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
console.error(`appended ${samples.length} Java SDK samples to ${out}`);
