// Captures tools/list, prompts/list, resources/list, resources/templates/list and instructions
// from an official npm MCP server over stdio, with the official SDK client.
import { Client } from "/work/main/warden-e2e/src/test/node/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js";
import { StdioClientTransport } from "/work/main/warden-e2e/src/test/node/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js";
const [cmd, ...args] = process.argv.slice(2);
const t = new StdioClientTransport({ command: cmd, args, stderr: "ignore" });
const c = new Client({ name: "warden-capture", version: "1" });
await c.connect(t);
const caps = c.getServerCapabilities() ?? {};
const out = { server: c.getServerVersion(), instructions: c.getInstructions() ?? null };
if (caps.tools) out.tools = (await c.listTools()).tools;
if (caps.prompts) out.prompts = (await c.listPrompts()).prompts;
if (caps.resources) { out.resources = (await c.listResources()).resources; out.resourceTemplates = (await c.listResourceTemplates()).resourceTemplates; }
console.log(JSON.stringify(out, null, 1));
await c.close();
