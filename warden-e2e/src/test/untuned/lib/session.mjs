// One scripted session against one server command: the official TypeScript SDK client (the same
// for the direct run and the run through `warden wrap`), every message it receives kept for the
// leak check, each step's outcome as the client got it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';

const TIMEOUT_MS = 90_000;

export async function openSession(command, env, cwd) {
  const transport = new StdioClientTransport({
    command: command[0], args: command.slice(1), env, cwd, stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => { stderr = (stderr + chunk).slice(-20000); });
  const received = [];
  const client = new Client({ name: 'warden-untuned', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  // Every message the client receives from here on (answers and notifications), for the leak check.
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => { received.push(message); deliver?.(message, extra); };
  return {
    client,
    transport,
    received,
    pid: () => transport.pid,
    stderr: () => stderr,
    info: { server: client.getServerVersion(), capabilities: client.getServerCapabilities() },
    async call(method, params, onprogress) {
      const from = received.length;
      let outcome;
      try {
        const options = { timeout: TIMEOUT_MS, resetTimeoutOnProgress: true };
        if (onprogress) options.onprogress = onprogress;
        const result = await client.request({ method, params }, ResultSchema.passthrough(), options);
        outcome = { result };
      } catch (e) {
        outcome = { error: { code: e?.code ?? null, message: String(e?.message ?? e), data: e?.data ?? null } };
      }
      return { outcome, messages: received.slice(from) };
    },
    async close() {
      try { await client.close(); } catch { /* already gone */ }
    },
  };
}

/** A failure as the client sees it: a JSON-RPC error or an isError result. */
export function failed(outcome) {
  return outcome.error !== undefined || outcome.result?.isError === true;
}

/** Warden's error object from what the client received: structuredContent, the text block, or error.data. */
export function wardenError(outcome) {
  if (outcome.error) {
    const data = outcome.error.data;
    return data && typeof data.code === 'string' ? { ...data, protocol: true } : null;
  }
  const result = outcome.result ?? {};
  if (result.isError !== true) return null;
  const structured = result.structuredContent?.error;
  if (structured && typeof structured.code === 'string') return structured;
  for (const block of result.content ?? []) {
    if (block?.type !== 'text') continue;
    try {
      const error = JSON.parse(block.text)?.error;
      if (error && typeof error.code === 'string') return error;
    } catch { /* not Warden's JSON */ }
  }
  return null;
}

/** Every string in a value, joined: what a model reads of it (JSON escapes undone). */
export function textOf(value) {
  const out = [];
  const walk = (v) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.entries(v).forEach(([k, x]) => { out.push(k); walk(x); });
    else if (v !== undefined && v !== null) out.push(String(v));
  };
  walk(value);
  return out.join('\n');
}
