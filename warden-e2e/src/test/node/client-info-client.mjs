// The official TypeScript SDK client, introducing itself with a name, version and title of its
// own, calls who-am-i on the server command given (directly, or through `warden wrap`) and prints
// the clientInfo the server saw, as JSON.
// Usage: node client-info-client.mjs <command> [args...]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'acme-desktop', version: '3.1.4', title: 'Acme Desktop' });
await client.connect(transport);
const result = await client.callTool({ name: 'who-am-i', arguments: {} });
console.log(result.content[0].text);
await client.close();
