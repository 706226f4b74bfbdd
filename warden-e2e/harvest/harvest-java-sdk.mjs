// Drives the MCP server on the official MCP Java SDK (java-sdk-server/, built by
// scripts/harvest-corpus) and APPENDS its samples to the harvested corpus. The server's tools let
// the exception propagate; the SDK answers -32603 with getMessage() in error.message and the cause
// chain in error.data (a string), so each failure gives two samples: `-message` and `-data`, both
// verbatim, with the frame. Raw JSON lines on stdio: no client library between us and the bytes.
//
// Usage: node harvest-java-sdk.mjs <out.jsonl>   (the environment is scripts/harvest-corpus's)
import { appendFileSync, readFileSync } from 'node:fs';
import { corpus, SQL } from './corpus.mjs';
import { startServer } from './mcp-stdio.mjs';

const env = process.env;
const out = process.argv[2];
const { samples, add } = corpus(JSON.parse(env.CANARIES));
const existing = new Set(readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).id));

// The SDK answers on its own threads: responses may come out of order (startServer matches them by id).
const { rpc, close } = await startServer(env, 'java', ['-cp', env.JAVA_SDK_CLASSPATH, 'harvest.JavaSdkServer']);

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
close();

const clash = samples.filter((s) => existing.has(s.id)).map((s) => s.id);
if (clash.length) throw new Error(`already in ${out}: ${clash.join(', ')} (remove them to re-harvest this step)`);
appendFileSync(out, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
console.error(`appended ${samples.length} Java SDK samples to ${out}`);
