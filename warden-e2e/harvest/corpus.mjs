// What harvest.mjs and harvest-java-sdk.mjs share: the caller's SQL and how a capture becomes a
// corpus sample (its canaries, the caller's identifiers to keep), so both write the same format.

/** The caller's SQL: each names only its own tables (customers, orders, …) and its own mistakes. */
export const SQL = {
  syntax: 'SELEC * FROM customers',
  column: 'SELECT emial FROM customers',
  table: 'SELECT * FROM custmers',
  unique: "INSERT INTO customers (id, email, name, age) VALUES (7, 'ada@example.com', 'Ada', 36)",
  notnull: "INSERT INTO customers (id, email, name, age) VALUES (8, 'bob@example.com', NULL, 41)",
  check: "INSERT INTO customers (id, email, name, age) VALUES (9, 'cy@example.com', 'Cy', -3)",
  fk: 'INSERT INTO orders (id, customer_id, total) VALUES (1, 99, 10)',
  divide: 'SELECT total / 0 FROM orders_view',
  type: "SELECT * FROM customers WHERE id = 'abc'",
  function: 'SELECT lenght(email) FROM customers',
  permission: 'SELECT * FROM audit_log',
  trigger: "UPDATE customers SET name = 'Ada L.' WHERE id = 1",
  timeout: 'SELECT pg_sleep(2)',
};

/**
 * A corpus under construction. canaries: everything planted through configuration; none of it is
 * ever sent by a caller. add(sample) checks a capture and appends it to samples.
 */
export function corpus(canaries) {
  const CANARIES = canaries;
  const samples = [];

  function canariesIn(raw) {
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
    return CANARIES.filter((c) => text.includes(c));
  }

  /** The quoted names of a database message that the caller's own text holds (case-insensitive). */
  function callerIdentifiers(raw, caller) {
    const text = typeof raw === 'string' ? raw : messagesOf(raw).join('\n');
    const sent = JSON.stringify(caller).toLowerCase();
    const found = new Set();
    for (const m of text.matchAll(/["'`]([A-Za-z_][A-Za-z0-9_.]{1,40})["'`\\]/g)) {
      for (const part of [m[1], ...m[1].split('.')]) {
        if (part.length > 1 && sent.includes(part.toLowerCase()) && !CANARIES.some((c) => part.includes(c))) {
          found.add(part);
        }
      }
    }
    return [...found];
  }

  /** The string values of a JSON error (not its keys, not the echoed SQL or the stack). */
  function messagesOf(value, key = '') {
    if (typeof value === 'string') return ['sql', 'stack'].includes(key) ? [] : [value];
    if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => messagesOf(v, k));
    return [];
  }

  /** The caller's misspelt names: each must survive wherever the error repeats it. */
  const MISTAKES = ['SELEC', 'emial', 'custmers', 'lenght'];

  function add(sample) {
    const raw = sample.raw;
    if (raw === undefined || raw === '' || raw === null) {
      throw new Error(`sample ${sample.id} captured nothing`);
    }
    const keep = sample.benign ? [] : [...new Set([...(sample.keep ?? []),
      ...(sample.category === 'database' ? callerIdentifiers(raw, sample.caller) : []),
      ...(sample.category === 'database' ? MISTAKES.filter((m) => messagesOf(raw).some((t) => new RegExp(`\\b${m}\\b`).test(t))) : [])])];
    for (const k of keep) {
      const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
      if (!text.includes(k)) throw new Error(`sample ${sample.id}: keep ${k} is not in what was captured`);
    }
    samples.push({ id: sample.id, source: sample.source, category: sample.category, tool: sample.tool ?? sample.id,
      caller: sample.caller, raw, canaries: sample.benign ? [] : canariesIn(raw), keep,
      ...(sample.actionable && { actionable: sample.actionable }), benign: !!sample.benign,
      ...(sample.frame && { frame: sample.frame }) });
  }

  return { samples, add };
}
