// The table: per server and totals, the dev set and the held-out set apart (Markdown), and the
// failures judged wrong, each with what Warden gave and what the judge expected.

export function summarise(run) {
  const failures = run.steps.filter((s) => s.kind !== 'ordinary');
  const ordinary = run.steps.filter((s) => s.kind === 'ordinary');
  return {
    name: run.name,
    heldOut: run.heldOut,
    calls: run.calls,
    failures: failures.length,
    leaks: failures.reduce((n, s) => n + (s.leaks.length > 0 ? 1 : 0), 0) + (run.otherLeaks?.length ?? 0),
    rightCode: failures.filter((s) => s.rightCode).length,
    fixKept: failures.filter((s) => s.fixKept).length,
    successes: ordinary.length,
    identical: ordinary.filter((s) => s.identical).length,
    paused: run.repeat ? run.repeat.paused + (run.repeat.thenServed ? 0 : 1) : 0,
    crash: run.crash ? (run.crash.recovered && run.crash.pausedAfter !== null ? 'recovers' : 'no') : '-',
    premisesBroken: run.steps.filter((s) => !s.premise).map((s) => s.label),
    error: run.error ?? null,
  };
}

function pct(n, d) {
  return d === 0 ? '-' : `${n}/${d} (${Math.round((100 * n) / d)}%)`;
}

function table(rows, title) {
  const lines = [`### ${title}`, '',
    '| server | calls | failures | leaks | right code | fix kept | successes identical | paused | crash |',
    '|---|---|---|---|---|---|---|---|---|'];
  const total = { calls: 0, failures: 0, leaks: 0, rightCode: 0, fixKept: 0, successes: 0, identical: 0, paused: 0 };
  for (const r of rows) {
    lines.push(`| ${r.name}${r.error ? ' (error)' : ''} | ${r.calls} | ${r.failures} | ${r.leaks} | ${pct(r.rightCode, r.failures)} | `
      + `${pct(r.fixKept, r.failures)} | ${r.identical}/${r.successes} | ${r.paused} | ${r.crash} |`);
    for (const k of Object.keys(total)) total[k] += r[k];
  }
  lines.push(`| **total** | ${total.calls} | ${total.failures} | ${total.leaks} | ${pct(total.rightCode, total.failures)} | `
    + `${pct(total.fixKept, total.failures)} | ${total.identical}/${total.successes} | ${total.paused} | |`);
  return { text: lines.join('\n'), total };
}

export function markdown(runs) {
  const rows = runs.map(summarise);
  const out = [];
  const dev = rows.filter((r) => !r.heldOut);
  const held = rows.filter((r) => r.heldOut);
  const totals = {};
  if (dev.length) { const t = table(dev, 'Dev set'); out.push(t.text); totals.dev = t.total; }
  if (held.length) { const t = table(held, 'Held-out set'); out.push(t.text); totals.heldOut = t.total; }
  const wrong = [];
  for (const run of runs) {
    if (run.error) wrong.push(`- ${run.name}: the run failed: ${run.error}`);
    for (const s of run.steps.filter((x) => x.kind !== 'ordinary')) {
      if (!s.premise) wrong.push(`- ${run.name} / ${s.label}: PREMISE: succeeded directly`);
      if (s.leaks.length) wrong.push(`- ${run.name} / ${s.label}: LEAK ${JSON.stringify(s.leaks)}`);
      if (!s.rightCode) {
        wrong.push(`- ${run.name} / ${s.label}: code ${JSON.stringify(s.got)}, expected ${JSON.stringify(s.expected.codes)} `
          + `retryable ${s.expected.retryable}`);
      }
      if (!s.fixKept) wrong.push(`- ${run.name} / ${s.label}: fix lost ${JSON.stringify(s.fixMissing)}`);
    }
    for (const s of run.steps.filter((x) => x.kind === 'ordinary')) {
      if (!s.premise) wrong.push(`- ${run.name} / ${s.label}: PREMISE: failed directly`);
      if (!s.identical) wrong.push(`- ${run.name} / ${s.label}: success differs through wrap`);
    }
    if (run.repeat && (run.repeat.paused || !run.repeat.thenServed)) {
      wrong.push(`- ${run.name}: repeat paused ${run.repeat.paused}, then-call served ${run.repeat.thenServed}`);
    }
    if (run.crash && !(run.crash.recovered && run.crash.pausedAfter !== null)) {
      wrong.push(`- ${run.name}: crash ${JSON.stringify({ ...run.crash, attempts: undefined })}`);
    }
  }
  if (wrong.length) out.push(['### Judged wrong', '', ...wrong].join('\n'));
  return { text: out.join('\n\n'), rows, totals };
}
