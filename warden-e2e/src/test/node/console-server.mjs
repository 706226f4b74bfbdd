// The upstream of the console's end-to-end test (ConsoleInChromiumEndToEndTest): a stdio MCP server
// written by hand, so its tool names and descriptions are exactly what an attacker would list.
//   lookup                      answers
//   fail                        fails as leaky servers do: a stack trace with a path and a credential
//   <script>alert(1)</script>   a name and a description carrying markup; fails when asked to
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const text = (t, isError = false) => ({ content: [{ type: 'text', text: t }], ...(isError && { isError: true }) });
const SCRIPT_TOOL = '<script>alert(1)</script>';
const object = { type: 'object', properties: { fail: { type: 'boolean' }, q: { type: 'string' } } };

const TOOLS = [
  { name: 'lookup', description: 'Looks a customer up.', inputSchema: object },
  { name: 'fail', description: 'Always fails.', inputSchema: object },
  { name: SCRIPT_TOOL, description: '<img src=x onerror="alert(2)"> "quoted" & \'single\'', inputSchema: object },
];

const LEAK = 'Traceback (most recent call last):\n  File "/opt/app/<server>.py", line 88, in call_tool\n'
  + 'psycopg2.OperationalError: could not connect to postgres://admin:S3cr3tPass@db.internal.corp:5432/users';

createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  switch (msg.method) {
    case 'initialize':
      return send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: {} }, serverInfo: { name: 'console-upstream', version: '1.0.0' } } });
    case 'tools/list':
      return send({ jsonrpc: '2.0', id: msg.id, result: { tools: TOOLS } });
    case 'tools/call': {
      const { name, arguments: args = {} } = msg.params;
      if (name === 'lookup') return send({ jsonrpc: '2.0', id: msg.id, result: text('found ' + (args.q ?? '')) });
      if (name === 'fail' || (name === SCRIPT_TOOL && args.fail)) {
        return send({ jsonrpc: '2.0', id: msg.id, result: text(LEAK, true) });
      }
      if (name === SCRIPT_TOOL) return send({ jsonrpc: '2.0', id: msg.id, result: text('ran nothing') });
      return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'Unknown tool' } });
    }
    case 'ping':
      return send({ jsonrpc: '2.0', id: msg.id, result: {} });
    default:
      return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
  }
});
