#!/usr/bin/env node
// The "pipe" of scripts/bench-wrap: the least a stdio MCP proxy can do. It runs the server given
// as its arguments and forwards whole lines (newline-delimited JSON-RPC messages) both ways, as
// they come, without parsing them; stderr goes through untouched. What a real proxy adds beyond
// this is its own cost.
//   node pipe-proxy.js COMMAND [ARGS...]
"use strict";
const { spawn } = require("node:child_process");

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write("usage: pipe-proxy.js COMMAND [ARGS...]\n");
  process.exit(2);
}
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

function forwardLines(from, to) {
  let pending = [];
  from.on("data", (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, nl + 1));
      to.write(pending.length === 1 ? pending[0] : Buffer.concat(pending));
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
}

forwardLines(process.stdin, child.stdin);
forwardLines(child.stdout, process.stdout);
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
