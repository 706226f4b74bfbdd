// Drives the real software set up by scripts/harvest-corpus and writes the harvested corpus:
// one JSON line per sample. MCP samples are the raw frames server.mjs (official TypeScript SDK)
// sent, read from its stdout; runtime samples are what a program printed when it failed.
//
// Usage: node harvest.mjs <out.jsonl>   (the environment is scripts/harvest-corpus's)
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { corpus, SQL } from './corpus.mjs';
import { startServer } from './mcp-stdio.mjs';

const env = process.env;
const out = process.argv[2];
const { samples, add } = corpus(JSON.parse(env.CANARIES));

// ---- MCP: the TypeScript SDK server ------------------------------------------------------------

const logs = [];
const { rpc, close } = await startServer(env, process.execPath, ['server.mjs'], (frame) => {
  if (frame.msg.method === 'notifications/message') logs.push(frame);
});

/** Calls a tool as a caller would; the sample's raw is what the SDK put in the text (or error message) it sent. */
async function mcp(id, source, category, tool, caller, extra = {}) {
  const { line, msg } = await rpc('tools/call', { name: tool, arguments: caller });
  let raw;
  if (msg.error) raw = msg.error.message;
  else raw = msg.result.content.map((c) => c.text).join('\n');
  if (extra.benign && (msg.error || msg.result.isError)) throw new Error(`benign ${id} failed: ${line}`);
  if (!extra.benign && !(msg.error || msg.result.isError)) throw new Error(`failure ${id} succeeded: ${line}`);
  if (extra.json) raw = JSON.parse(raw);
  add({ id, source, category, tool, caller, raw, frame: line, ...extra });
}

const MARIA_SQL = Object.fromEntries(Object.entries(SQL).filter(([k]) => !['timeout', 'type', 'divide'].includes(k)));

for (const [variant, suffix] of [['throw', ''], ['detail', '_detail']]) {
  const json = variant === 'detail';
  for (const [kind, sql] of Object.entries(SQL)) {
    await mcp(`ts-pg-${kind}-${variant}`, 'ts-sdk/postgresql', 'database', `pg_query${suffix}`, { sql }, { json });
  }
  await mcp(`ts-pg-auth-${variant}`, 'ts-sdk/postgresql', 'database', `pg_replica_query${suffix}`, { sql: 'SELECT 1' }, { json });
  await mcp(`ts-pg-refused-${variant}`, 'ts-sdk/postgresql', 'topology', `pg_archive_query${suffix}`, { sql: 'SELECT 1' }, { json });
  for (const [kind, sql] of Object.entries(MARIA_SQL)) {
    await mcp(`ts-mariadb-${kind}-${variant}`, 'ts-sdk/mariadb', 'database', `mariadb_query${suffix}`, { sql }, { json });
  }
  await mcp(`ts-mariadb-auth-${variant}`, 'ts-sdk/mariadb', 'database', `mariadb_replica_query${suffix}`, { sql: 'SELECT 1' }, { json });
  for (const kind of ['syntax', 'column', 'table', 'unique', 'notnull', 'check', 'fk', 'function']) {
    await mcp(`ts-sqlite-${kind}-${variant}`, 'ts-sdk/sqlite', 'database', `sqlite_query${suffix}`, { sql: SQL[kind] }, { json });
  }
  await mcp(`ts-sqlite-cantopen-${variant}`, 'ts-sdk/sqlite', 'path', `sqlite_archive_query${suffix}`, { sql: 'SELECT 1' }, { json });
  await mcp(`ts-fs-missing-${variant}`, 'ts-sdk/filesystem', 'path', `read_file${suffix}`, { path: 'reports/q3-summary.txt' },
    { json, keep: ['reports/q3-summary.txt'] });
  await mcp(`ts-fs-directory-${variant}`, 'ts-sdk/filesystem', 'path', `read_file${suffix}`, { path: 'reports' }, { json });
  await mcp(`ts-fs-permission-${variant}`, 'ts-sdk/filesystem', 'path', `read_file${suffix}`, { path: 'private/payroll.csv' },
    { json, keep: ['private/payroll.csv'] });
  await mcp(`ts-fs-notdir-${variant}`, 'ts-sdk/filesystem', 'path', `list_dir${suffix}`, { path: 'notes.txt' }, { json });
}
await mcp('ts-pg-logged', 'ts-sdk/postgresql', 'database', 'pg_query_logged', { sql: SQL.unique });
samples[samples.length - 1].id = 'ts-pg-logged-throw';
add({ id: 'ts-pg-log-notification', source: 'ts-sdk/postgresql', category: 'stack-trace', tool: 'pg_query_logged',
  caller: { sql: SQL.unique }, raw: logs.at(-1).msg.params.data, frame: logs.at(-1).line });

for (const [kind, p] of [['express-missing', '/reports/2024-q3'], ['express-typeerror', '/users/42'],
  ['python-missing', '/invoices/INV-1009'], ['python-sqlite', '/prices/SKU-77']]) {
  const api = kind.startsWith('express') ? 'express' : 'python';
  await mcp(`ts-http-${kind}`, `ts-sdk/http-${api}`, 'stack-trace', 'api_get', { api, path: p });
}

const BAD = { email: 'ada-at-example', name: 'Ada' };
await mcp('ts-zod-email-throw', 'ts-sdk/zod', 'validation', 'signup_zod', BAD,
  { actionable: { pointer: '/email', message: 'Invalid email' } });
await mcp('ts-zod-sdk-input', 'ts-sdk/zod', 'validation', 'signup_zod_sdk', BAD,
  { actionable: { pointer: '/email', message: 'Invalid email' } });
await mcp('ts-ajv-email', 'ts-sdk/ajv', 'validation', 'signup_ajv', BAD,
  { json: true, actionable: { pointer: '/email', message: 'must match format "email"' } });
await mcp('ts-joi-email-throw', 'ts-sdk/joi', 'validation', 'signup_joi', BAD,
  { actionable: { pointer: '/email', message: '"email" must be a valid email' } });
await mcp('ts-joi-email-detail', 'ts-sdk/joi', 'validation', 'signup_joi_detail', BAD,
  { json: true, actionable: { pointer: '/email', message: '"email" must be a valid email' } });

// Benign: the same servers' successful results.
await mcp('ts-pg-ok', 'ts-sdk/postgresql', 'benign', 'pg_query', { sql: 'SELECT id, email, name FROM customers ORDER BY id' }, { benign: true });
await mcp('ts-mariadb-ok', 'ts-sdk/mariadb', 'benign', 'mariadb_query', { sql: 'SELECT id, email, name FROM customers ORDER BY id' }, { benign: true });
await mcp('ts-sqlite-ok', 'ts-sdk/sqlite', 'benign', 'sqlite_query', { sql: 'SELECT id, email, name FROM customers ORDER BY id' }, { benign: true });
await mcp('ts-fs-ok', 'ts-sdk/filesystem', 'benign', 'read_file', { path: 'notes.txt' }, { benign: true });
await mcp('ts-fs-list-ok', 'ts-sdk/filesystem', 'benign', 'list_dir', { path: 'reports' }, { benign: true });
await mcp('ts-http-ok', 'ts-sdk/http-express', 'benign', 'api_get', { api: 'express', path: '/health' }, { benign: true });
await mcp('ts-zod-ok', 'ts-sdk/zod', 'benign', 'signup_zod', { email: 'ada@example.com', name: 'Ada' }, { benign: true });
close();

// ---- runtimes ----------------------------------------------------------------------------------

/** Runs a program that fails; the sample's raw is what it printed (stderr, or stdout when that is where it reports). */
function run(id, source, category, command, args, caller, extra = {}) {
  const r = spawnSync(command, args, { cwd: `${env.APP_DIR}/runtimes`, env: { ...env, ...(extra.env ?? {}) }, encoding: 'utf8', timeout: 120000 });
  if (r.error) throw r.error;
  let raw = (extra.stdout ? r.stdout : r.stderr).replace(/^SLF4J.*\n/gm, '').replace(/\n+$/, '');
  if (extra.json) raw = JSON.parse(raw);
  const { env: _e, stdout: _s, json: _j, ...rest } = extra;
  add({ id, source, category, caller, raw, ...rest });
}

const py = '/usr/bin/python3';
for (const kind of ['syntax', 'column', 'table', 'unique', 'notnull', 'check', 'fk', 'permission', 'trigger']) {
  run(`python-psycopg2-${kind}`, 'python/psycopg2', 'database', py, ['pg_psycopg2.py', SQL[kind]], { sql: SQL[kind] });
  run(`python-sqlalchemy-${kind}`, 'python/sqlalchemy', 'database', py, ['pg_sqlalchemy.py', SQL[kind]], { sql: SQL[kind] });
}
run('python-psycopg2-auth', 'python/psycopg2', 'database', py, ['pg_psycopg2.py', 'SELECT 1'], { sql: 'SELECT 1' },
  { env: { PG_DSN: env.PG_BAD_DSN } });
run('python-pydantic-email', 'python/pydantic', 'validation', py, ['validate_pydantic.py', JSON.stringify(BAD)], BAD,
  { actionable: { pointer: '/email', message: 'string does not match regex' } });
run('python-pydantic-email-json', 'python/pydantic', 'validation', py, ['validate_pydantic.py', JSON.stringify(BAD), '--json'], BAD,
  { stdout: true, json: true, actionable: { pointer: '/email', message: 'string does not match regex' } });
run('python-jsonschema-email', 'python/jsonschema', 'validation', py, ['validate_jsonschema.py', JSON.stringify(BAD)], BAD,
  { actionable: { pointer: '/email', message: "'ada-at-example' is not a 'email'" } });
run('python-jsonschema-email-best', 'python/jsonschema', 'validation', py, ['validate_jsonschema.py', JSON.stringify(BAD), '--best'], BAD,
  { stdout: true, json: true, actionable: { pointer: '/email', message: "'ada-at-example' is not a 'email'" } });
run('python-file-missing', 'python', 'path', py, ['read_config.py', 'settings/prod.yaml'], { name: 'settings/prod.yaml' });
run('node-file-missing', 'node', 'path', process.execPath, ['read_config.mjs', 'settings/prod.json'], { name: 'settings/prod.json' });
run('node-json-parse', 'node', 'stack-trace', process.execPath, ['read_config.mjs', 'broken.json'], { name: 'broken.json' });
for (const [kind, sql, bad] of [['column', SQL.column], ['fk', SQL.fk], ['unique', SQL.unique], ['auth', 'SELECT 1', true]]) {
  const args = ['-cp', env.JDBC_CLASSPATH, 'Jdbc.java', sql, ...(bad ? ['bad'] : [])];
  run(`java-jdbc-${kind}`, 'java/pgjdbc', 'database', 'java', args, { sql });
  run(`java-jdbc-${kind}-message`, 'java/pgjdbc', 'database', 'java', args, { sql }, { stdout: true, env: { GET_MESSAGE: '1' } });
}
run('java-networknt-email', 'java/networknt', 'validation', 'java', ['-cp', env.SCHEMA_CLASSPATH, 'Networknt.java', JSON.stringify(BAD)], BAD,
  { stdout: true, actionable: { pointer: '/email', message: 'does not match the email pattern must be a valid RFC 5321 Mailbox' } });
if (env.HAVE_RUBY) run('ruby-file-missing', 'ruby', 'path', 'ruby', ['read_config.rb', 'settings/prod.yml'], { name: 'settings/prod.yml' });
if (env.HAVE_PHP) run('php-file-missing', 'php', 'path', 'php', ['read_config.php', 'settings/prod.ini'], { name: 'settings/prod.ini' });
if (env.HAVE_GO) run('go-file-missing', 'go', 'stack-trace', './read_config_go', ['settings/prod.toml'], { name: 'settings/prod.toml' });
if (env.HAVE_RUST) {
  run('rust-file-missing', 'rust', 'stack-trace', './read_config_rs', ['settings/prod.toml'], { name: 'settings/prod.toml' },
    { env: { RUST_BACKTRACE: '1' } });
}

writeFileSync(out, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
console.error(`harvested ${samples.length} samples into ${out}`);
