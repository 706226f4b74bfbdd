// The harvested-corpus suite's client: the official TypeScript SDK client connects to a server
// command (warden wrap in front of replay-server.mjs), replays every sample of the corpus in every
// shape, and prints one JSON line per call with what it received (HarvestedCorpusEndToEndTest).
//
// Usage: node corpus-client.mjs <harvested.jsonl> <command> [args...]
// Each line: { id, shape, outcome: { result } | { error: { code, message, data } }, logs: [params...] }
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export const FAILURE_SHAPES = ['message', 'data', 'legacy', 'isError', 'double', 'log'];
const [corpus, command, ...args] = process.argv.slice(2);
const samples = readFileSync(corpus, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

const client = new Client({ name: 'corpus-client', version: '1.0.0' });
let logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params); });
await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));

// Warden pauses a tool that fails half of its last calls (its breaker measures the server's
// health); a real server that fails on every call would be paused too. Two plain successes of the
// same tool before each failure keep the failure rate at a third, so every sample reaches the server.
const SUCCESSES_PER_FAILURE = 2;

for (const sample of samples) {
  for (const shape of sample.benign ? ['result'] : FAILURE_SHAPES) {
    for (let i = 0; !sample.benign && i < SUCCESSES_PER_FAILURE; i++) {
      await client.callTool({ name: 'replay_select', arguments: { id: sample.id, shape: 'ok' } });
      await client.callTool({ name: sample.tool, arguments: sample.caller });
    }
    await client.callTool({ name: 'replay_select', arguments: { id: sample.id, shape } });
    logs = [];
    let outcome;
    try {
      outcome = { result: await client.callTool({ name: sample.tool, arguments: sample.caller }) };
    } catch (e) {
      outcome = { error: { code: e.code, message: e.message, data: e.data } };
    }
    process.stdout.write(JSON.stringify({ id: sample.id, shape, outcome, logs }) + '\n');
  }
}
await client.close();
