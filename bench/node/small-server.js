#!/usr/bin/env node
// The small server of scripts/bench-wrap's fresh-process runs: a real MCP stdio server that starts
// in a few tens of milliseconds (Node's own start and nothing else: no dependency is loaded), so
// that what `warden wrap` adds to the first tools/list is not hidden behind a slow server's start.
// It answers initialize, ping, tools/list (one tool, echo) and tools/call echo; any other request
// gets -32601, a call of another tool an isError result; notifications are read and dropped.
//   node small-server.js
"use strict";

const TOOLS = [{
  name: "echo",
  description: "Echoes back the input",
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
}];

function answer(message) {
  switch (message.method) {
    case "initialize":
      return { result: { protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} }, serverInfo: { name: "small-server", version: "1.0.0" } } };
    case "ping":
      return { result: {} };
    case "tools/list":
      return { result: { tools: TOOLS } };
    case "tools/call": {
      const { name, arguments: args } = message.params ?? {};
      if (name !== "echo" || typeof args?.message !== "string") {
        return { result: { content: [{ type: "text", text: "echo takes a string message" }], isError: true } };
      }
      return { result: { content: [{ type: "text", text: `Echo: ${args.message}` }] } };
    }
    default:
      return { error: { code: -32601, message: "Method not found" } };
  }
}

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (!line.trim()) continue;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      process.stdout.write('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n');
      continue;
    }
    if (message.id === undefined || message.method === undefined) continue;
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...answer(message) }) + "\n");
  }
});
process.stdin.on("end", () => process.exit(0));
