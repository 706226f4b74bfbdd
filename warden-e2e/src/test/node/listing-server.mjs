// A hostile stdio MCP server for attacking `warden audit` (dev.warden.e2e.attack.AuditAttacks):
// newline-delimited JSON-RPC written by hand, each misbehaviour in what tools/list returns.
//   node listing-server.mjs --tools N           one page of N tools (a string and a number each)
//   node listing-server.mjs --tools N --wide    each with 8 string properties of maxLength 1,000,000
//   node listing-server.mjs --pages-forever     [] and a fresh nextCursor, for ever
// Every call is answered as a well-behaved server would: an isError result with a code.

const args = process.argv.slice(2);
const count = args.includes('--tools') ? Number(args[args.indexOf('--tools') + 1]) : 0;
const wide = args.includes('--wide');
const forever = args.includes('--pages-forever');
let page = 0;

const out = process.stdout;
function send(msg) {
  return new Promise(resolve => {
    if (out.write(JSON.stringify(msg) + '\n')) resolve();
    else out.once('drain', resolve);
  });
}

function schema() {
  const properties = {};
  if (wide) {
    for (let p = 0; p < 8; p++) properties['text' + p] = { type: 'string', maxLength: 1000000 };
  } else {
    properties.query = { type: 'string' };
    properties.limit = { type: 'integer', minimum: 1, maximum: 100 };
  }
  return { type: 'object', properties, required: ['query'].filter(r => r in properties) };
}

function tools() {
  const all = [];
  for (let i = 0; i < count; i++) all.push({ name: 'lookup_' + i, description: 'Looks up entry ' + i, inputSchema: schema() });
  return all;
}

const invalid = id => send({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } });

function handle(msg) {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return invalid(null);
  if (msg.method === undefined) return; // an answer
  if (msg.id === undefined) return; // a notification
  if (typeof msg.id !== 'string' && !Number.isInteger(msg.id)) return invalid(null);
  switch (msg.method) {
    case 'initialize':
      return send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} }, serverInfo: { name: 'listing', version: '1.0.0' } } });
    case 'ping':
      return send({ jsonrpc: '2.0', id: msg.id, result: {} });
    case 'tools/list':
      if (forever) return send({ jsonrpc: '2.0', id: msg.id, result: { tools: [], nextCursor: 'page-' + (++page) } });
      return send({ jsonrpc: '2.0', id: msg.id, result: { tools: tools() } });
    case 'tools/call':
      return send({ jsonrpc: '2.0', id: msg.id, result: { isError: true,
        content: [{ type: 'text', text: JSON.stringify({ code: 'NOT_FOUND', message: 'no such entry' }) }] } });
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
    try { msg = JSON.parse(line); } catch {
      send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      continue;
    }
    Promise.resolve(handle(msg)).catch(e => process.stderr.write(String(e) + '\n'));
  }
});
process.stdin.on('end', () => process.exit(0));
