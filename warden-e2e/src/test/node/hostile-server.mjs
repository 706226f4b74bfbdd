// A hostile stdio MCP server for the attack suite (dev.warden.e2e.attack): newline-delimited
// JSON-RPC written by hand, so each misbehaviour is exactly the bytes an attacker would choose.
// Each tool is one misbehaviour; `echo` and `sleep` are honest, so a client sharing this process
// can measure whether the flood on another call stalls it.
import { spawn } from 'node:child_process';

const out = process.stdout;
let nextAsk = 0;
const asked = new Map(); // id of a request this server sent -> how many answers came back

function write(text) {
  return new Promise(resolve => {
    if (out.write(text + '\n')) resolve();
    else out.once('drain', resolve);
  });
}
const send = msg => write(JSON.stringify(msg));
const result = (id, text) => send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

const TOOLS = ['echo', 'sleep', 'flood-log', 'flood-progress', 'unknown-progress', 'ask-loop', 'wrong-ids',
  'big-line', 'non-utf8', 'stop-reading', 'fork-exit', 'schema-failure'];

async function call(id, name, args, meta) {
  switch (name) {
    case 'echo':
      return result(id, 'Echo: ' + (args.message ?? ''));
    case 'sleep':
      await new Promise(r => setTimeout(r, args.ms ?? 1000));
      return result(id, 'slept');
    case 'flood-log': { // notifications/message, as fast as the pipe takes them
      const data = 'x'.repeat(args.size ?? 512);
      for (let i = 0; i < (args.count ?? 10000); i++) {
        await send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'flood', data: i + ' ' + data } });
      }
      return result(id, 'flooded');
    }
    case 'flood-progress': // progress for the caller's own token, or for tokens nobody asked for
    case 'unknown-progress': {
      const own = name === 'flood-progress' ? meta?.progressToken : undefined;
      const message = 'p'.repeat(args.size ?? 256);
      for (let i = 0; i < (args.count ?? 10000); i++) {
        await send({ jsonrpc: '2.0', method: 'notifications/progress',
          params: { progressToken: own ?? ('nobody-asked-' + i), progress: i, message } });
      }
      return result(id, 'progressed');
    }
    case 'ask-loop': { // server-to-client requests, all at once; the result counts the answers
      const count = args.count ?? 1000;
      const methods = ['ping', 'roots/list', 'sampling/createMessage', 'elicitation/create'];
      const mine = [];
      for (let i = 0; i < count; i++) {
        const askId = 'ask-' + nextAsk++;
        mine.push(askId);
        asked.set(askId, 0);
        const method = methods[i % methods.length];
        const params = method === 'sampling/createMessage'
          ? { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }
          : method === 'elicitation/create' ? { message: 'name?', requestedSchema: { type: 'object', properties: {} } } : {};
        await send({ jsonrpc: '2.0', id: askId, method, params });
      }
      const deadline = Date.now() + (args.waitMs ?? 20000);
      while (Date.now() < deadline && mine.some(a => asked.get(a) === 0)) await new Promise(r => setTimeout(r, 50));
      const answered = mine.filter(a => asked.get(a) >= 1).length;
      const duplicated = mine.filter(a => asked.get(a) > 1).length;
      return result(id, JSON.stringify({ asked: count, answered, duplicated }));
    }
    case 'wrong-ids': // an answer to a request never made, the real answer, then that answer again
      await send({ jsonrpc: '2.0', id: 987654321, result: { content: [{ type: 'text', text: 'for nobody' }] } });
      await send({ jsonrpc: '2.0', id: String(id) + '-not-it', result: {} });
      await result(id, 'the real answer');
      return result(id, 'the same answer again');
    case 'big-line': // one line of args.mb MiB
      return result(id, 'a'.repeat((args.mb ?? 50) * 1024 * 1024));
    case 'non-utf8': { // an answer whose text holds bytes that are not UTF-8
      const head = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'X' }] } }));
      const at = head.indexOf('"X"') + 1;
      return new Promise(r => out.write(Buffer.concat([head.subarray(0, at), Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
        head.subarray(at + 1), Buffer.from('\n')]), r));
    }
    case 'stop-reading': // answers, then never reads stdin again: the writer's pipe fills
      await result(id, 'no longer reading');
      process.stdin.removeAllListeners('data');
      process.stdin.pause();
      process.stdin._handle?.readStop?.(); // pause() alone lets libuv keep draining the pipe into memory
      setInterval(() => {}, 1 << 30); // with stdin stopped nothing else keeps Node from exiting
      return;
    case 'fork-exit': { // a child keeps the pipes open; this process exits
      await result(id, 'forking');
      spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'inherit', detached: true }).unref();
      process.exit(0);
    }
    case 'schema-failure': // the official MCP Java SDK's answer to arguments failing the input schema
      return send({ jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text',
        text: "Tool (schema-failure) input validation failed: $: required property 'email' not found" }] } });
    default:
      return send({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Unknown tool' } });
  }
}

function handle(msg) {
  if (msg.method === undefined) { // an answer to one of this server's requests
    if (asked.has(msg.id)) asked.set(msg.id, asked.get(msg.id) + 1);
    return;
  }
  if (msg.id === undefined) return; // a notification
  switch (msg.method) {
    case 'initialize':
      return send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'hostile', version: '1.0.0' } } });
    case 'ping':
    case 'logging/setLevel':
      return send({ jsonrpc: '2.0', id: msg.id, result: {} });
    case 'tools/list':
      return send({ jsonrpc: '2.0', id: msg.id, result: { tools: TOOLS.map(name => ({ name, description: name,
        inputSchema: { type: 'object' } })) } });
    case 'tools/call':
      return call(msg.id, msg.params?.name, msg.params?.arguments ?? {}, msg.params?._meta);
    default:
      return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
  }
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', chunk => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (line.trim() === '') continue;
    let msg;
    try { msg = JSON.parse(line); } catch { continue; }
    Promise.resolve(handle(msg)).catch(e => process.stderr.write(String(e) + '\n'));
  }
});
process.stdin.on('end', () => process.exit(0));
