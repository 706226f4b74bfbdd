// What harvest.mjs and harvest-java-sdk.mjs share to drive an MCP server: raw JSON lines on its
// stdio, no client library between us and the bytes.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Starts `program ...args` in env.APP_DIR with env (as the unprivileged user env.RUN_AS where one is
 * named, so the file system's permissions apply), its stderr on ours, and initializes it.
 * rpc(method, params) sends a request and resolves to the answer's { line, msg }: answers are
 * matched by id, since an SDK may answer on its own threads, out of order. A line that answers no
 * pending request (a notification) goes to onOther({ line, msg }). close() ends the server.
 */
export async function startServer(env, program, args, onOther = () => {}) {
  const command = env.RUN_AS && process.getuid?.() === 0
    ? ['runuser', ['-u', env.RUN_AS, '--', program, ...args]] : [program, args];
  const child = spawn(command[0], command[1], { cwd: env.APP_DIR, env, stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const msg = JSON.parse(line);
    if (msg.id !== undefined && pending.has(msg.id)) {
      pending.get(msg.id)({ line, msg });
      pending.delete(msg.id);
    } else {
      onOther({ line, msg });
    }
  });
  let nextId = 1;
  function rpc(method, params) {
    const id = nextId++;
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return new Promise((resolve) => pending.set(id, resolve));
  }
  function close() {
    child.stdin.end();
    child.kill();
  }
  await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'harvest', version: '1' } });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  return { rpc, close };
}
