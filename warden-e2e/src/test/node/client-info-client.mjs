// The official TypeScript SDK client, introducing itself with a name, version and title of its
// own, calls who-am-i on the server command given (directly, or through `warden wrap`) and prints
// the clientInfo the server saw, as JSON.
// Usage: node client-info-client.mjs <command> [args...], or <http://…/mcp> for Streamable HTTP
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [command, ...args] = process.argv.slice(2);
const transport = command.startsWith('http://') ? new StreamableHTTPClientTransport(new URL(command))
  : new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'acme-desktop', version: '3.1.4', title: 'Acme Desktop' });
await client.connect(transport);
const result = await client.callTool({ name: 'who-am-i', arguments: {} });
console.log(result.content[0].text);
await client.close();
