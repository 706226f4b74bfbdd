// Measured where nobody tuned (issue 31, Build 5): each server of servers/*.json runs its scripted
// session directly and through `warden wrap -- <command>` with the same real client (the official
// TypeScript SDK's); each failure is judged by the rules of RULES.md, written before the run.
//
// Usage: node runner.mjs [--warden PATH] [--only NAME] [--held-out] [--all] [--direct] [--no-warden] [--json FILE]
//   default: the dev set; --held-out: the held-out set; --all: both; --direct: the direct sessions only,
//   each step's outcome printed (for writing judges, never against Warden); --no-warden: the second run
//   directly too (checks the session files and their vary patterns without Warden: every success must
//   be identical, every fix and secret of a judge is in the server's own answer).
// Prints the table as Markdown; writes the JSON report; exits 1 on any leak, 2 when a run failed.
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { judgeFailure, judgeOrdinary, paused } from './lib/judge.mjs';
import { markdown } from './lib/report.mjs';
import { failed, openSession, wardenError } from './lib/session.mjs';
import {
  NODE, UNTUNED, descendants, layOut, placeholders, runSetup, startService, stopService,
} from './lib/stage.mjs';

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const flag = (name) => args.includes(name);
const WARDEN = resolve(option('--warden') ?? join(UNTUNED, '../../../../warden'));
const JSON_OUT = resolve(option('--json') ?? join(UNTUNED, '../../../target/untuned/report.json'));
const ONLY = option('--only');

const servers = readdirSync(join(UNTUNED, 'servers')).filter((f) => f.endsWith('.json')).sort()
  .map((f) => JSON.parse(readFileSync(join(UNTUNED, 'servers', f), 'utf8')))
  .filter((s) => (ONLY ? s.name === ONLY : flag('--all') || Boolean(s.heldOut) === flag('--held-out')));

/** The server's stage for one mode: files, services, setup; returns the services to stop. */
async function stage(spec, fill, tmp, env) {
  layOut(tmp, await fill.fill(spec.files ?? {}));
  const services = [];
  const list = [...(spec.services ?? [])];
  if (spec.mock) list.unshift({ command: ['${node}', `\${untuned}/${spec.mock}`, '${port:api}', ...(spec.mockArgs ?? [])], port: 'api' });
  for (const service of list) {
    const command = await fill.fill(service.command);
    await fill.fill(`\${port:${service.port}}`);
    services.push(await startService(command, fill.ports.get(service.port), tmp, env));
  }
  runSetup(await fill.fill(spec.setup), tmp, env);
  return services;
}

async function session(spec, fill, tmp, mode, work) {
  const env = { ...process.env, ...(await fill.fill(spec.env ?? {})) };
  const services = await stage(spec, fill, tmp, env);
  const command = await fill.fill(spec.command);
  const full = mode === 'direct' || flag('--no-warden') ? command
    : [WARDEN, 'wrap', '--data-dir', mkdtempSync(join(tmpdir(), 'untuned-warden-')), '--', ...command];
  const s = await openSession(full, env, tmp);
  try {
    return await work(s);
  } finally {
    await s.close();
    for (const service of services) await stopService(service);
  }
}

/** What every real client does first: list the tools (and what the model sees of them must be the same). */
const LIST_TOOLS = { label: 'list the tools', kind: 'ordinary', method: 'tools/list', params: {} };

async function steps(spec, fill, s) {
  const out = new Map();
  for (const step of [LIST_TOOLS, ...spec.steps.filter((x) => !x.only)]) {
    out.set(step.label, await s.call(step.method, await fill.fill(step.params)));
  }
  return out;
}

/** 200 mistakes in a row, then the good call: nothing may be paused. */
async function repeat(spec, fill, s, direct) {
  const mistake = spec.steps.find((x) => x.label === spec.repeat.step);
  const good = spec.steps.find((x) => x.label === spec.repeat.then);
  let pausedCount = 0;
  const messages = [];
  for (let i = 0; i < spec.repeat.times; i++) {
    const r = await s.call(mistake.method, await fill.fill(mistake.params));
    messages.push(...r.messages);
    if (paused(r.outcome)) pausedCount++;
  }
  const then = await s.call(good.method, await fill.fill(good.params));
  const same = judgeOrdinary(good, direct.get(good.label), then, spec.vary);
  return { times: spec.repeat.times, paused: pausedCount, thenServed: !failed(then.outcome) && same.identical, messages };
}

/** The upstream killed (SIGKILL) in flight, call after call, until wrap pauses it; then it recovers. */
async function crash(spec, fill, s) {
  const slow = spec.steps.find((x) => x.label === spec.crash.step);
  const good = spec.steps.find((x) => x.label === spec.crash.then);
  if (!slow || !good || !spec.crash.process) {
    throw new Error('crash needs step (a long call that reports progress), then and process (RULES.md, Pause)');
  }
  const attempts = [];
  let pausedAfter = null;
  for (let i = 0; i < 20 && pausedAfter === null; i++) {
    let killed = false;
    const r = await s.call(slow.method, await fill.fill(slow.params), () => {
      if (killed) return;
      killed = true;
      // The server itself: Warden's own processes name the command too, as their arguments.
      const server = descendants(s.pid()).filter((p) => p.cmdline.includes(spec.crash.process) && !/ wrap /.test(p.cmdline));
      for (const p of server) process.kill(p.pid, 'SIGKILL');
    });
    const error = wardenError(r.outcome);
    attempts.push({ killed, code: error?.code ?? null, retryable: error?.retryable ?? null, retryAfterMs: error?.retryAfterMs ?? null });
    if (!killed && paused(r.outcome)) pausedAfter = i;
  }
  const crashedRight = attempts.filter((a) => a.killed).every((a) => a.code === 'UPSTREAM_ERROR' && a.retryable === true);
  let recovered = false;
  for (let i = 0; i < 40 && !recovered && pausedAfter !== null; i++) {
    const r = await s.call(good.method, await fill.fill(good.params));
    if (!failed(r.outcome)) recovered = true;
    // The pause says when to come back: its retryAfterMs is honoured (the protocol's word, not a guess).
    else await new Promise((ok) => setTimeout(ok, Math.min(wardenError(r.outcome)?.retryAfterMs ?? 200, 10_000)));
  }
  return { attempts, crashedRight, pausedAfter, recovered: recovered && crashedRight };
}

/** The main session, then any "sessions" (the same server with other env: its API closed, its host unresolvable). */
function sessionsOf(spec) {
  return [{ label: 'main', env: {}, steps: spec.steps, main: true },
    ...(spec.sessions ?? []).map((x) => ({ ...x, main: false }))];
}

async function run(spec) {
  const tmp = mkdtempSync(join(tmpdir(), `untuned-${spec.name}-`));
  const fill = placeholders(tmp);
  const result = { name: spec.name, heldOut: Boolean(spec.heldOut), origin: spec.origin, kind: spec.kind, steps: [], calls: 0 };
  try {
    for (const part of sessionsOf(spec)) {
      const sub = { ...spec, steps: part.steps, env: { ...(spec.env ?? {}), ...part.env } };
      if (!part.main) { delete sub.mock; sub.services = part.services ?? []; sub.setup = part.setup ?? spec.setup; sub.command = part.command ?? spec.command; }
      const direct = await session(sub, fill, tmp, 'direct', (s) => steps(sub, fill, s));
      if (flag('--direct')) {
        for (const [label, r] of direct) console.log(JSON.stringify({ label, outcome: r.outcome }));
        continue;
      }
      await session(sub, fill, tmp, 'wrap', async (s) => {
        const wrapped = await steps(sub, fill, s);
        for (const raw of [LIST_TOOLS, ...part.steps.filter((x) => !x.only)]) {
          const step = await fill.fill(raw);
          result.steps.push(step.kind === 'ordinary'
            ? judgeOrdinary(step, direct.get(step.label), wrapped.get(step.label), spec.vary)
            : judgeFailure(step, direct.get(step.label), wrapped.get(step.label), spec.secrets ?? []));
          result.calls++;
        }
        if (part.main && spec.repeat) {
          const r = await repeat(sub, fill, s, direct);
          result.calls += r.times + 1;
          result.otherLeaks = (spec.secrets ?? []).filter((x) => JSON.stringify(r.messages).includes(x));
          delete r.messages;
          result.repeat = r;
        }
        if (part.main && spec.crash && !flag('--no-warden')) {
          result.crash = await crash(sub, fill, s);
          result.calls += result.crash.attempts.length;
        }
      });
    }
  } catch (e) {
    result.error = String(e?.stack ?? e);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return result;
}

const runs = [];
for (const spec of servers) {
  const started = Date.now();
  const r = await run(spec);
  r.seconds = Math.round((Date.now() - started) / 100) / 10;
  console.error(`untuned: ${spec.name} done in ${r.seconds}s${r.error ? ` (error: ${r.error.split('\n')[0]})` : ''}`);
  runs.push(r);
}
if (flag('--direct')) process.exit(0);
const report = markdown(runs);
console.log(report.text);
mkdirSync(dirname(JSON_OUT), { recursive: true });
writeFileSync(JSON_OUT, JSON.stringify({ node: NODE, warden: WARDEN, totals: report.totals, servers: report.rows, runs }, null, 1));
console.error(`untuned: JSON report in ${JSON_OUT}`);
const leaks = report.rows.reduce((n, r) => n + r.leaks, 0);
process.exit(leaks > 0 ? 1 : runs.some((r) => r.error) ? 2 : 0);
