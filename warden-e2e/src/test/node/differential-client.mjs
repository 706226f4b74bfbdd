// The differential suite's client: the official TypeScript SDK client runs one scripted session of
// ordinary work and of the mistakes a model makes against a server command, directly or through
// `warden wrap`, and prints one JSON transcript of what it received (WrapDifferentialEndToEndTest).
//
// Usage: node differential-client.mjs <scenario> <options-json> <command> [args...]
//   options: { roots: [dir...] (the client's), env: {NAME: value} (the server's), a: dir, b: dir
//              (server-filesystem's two directories), burst: true (50 mistakes in a row, then work) }
//
// Each step is { name, kind, expect?, request: {method, params}, outcome, wire }:
//   kind  work      ordinary work: succeeds, and succeeds alike through wrap
//         mistake   a caller's mistake: fails; `expect` names the code(s) Warden should give it
//         unknown   a tool that does not exist
//         same      whatever the server answers (a result or a JSON-RPC error), wrap answers alike
//         crash, recovery  the crash scenario's calls (through wrap only)
//   outcome { result } or { error: { name, code, message, data } }, as the SDK client returned it;
//   strings longer than 64 KiB are replaced by { $large: { length, sha256 } }.
//   wire  the line that answered the request, as the client read it from the server's (or Warden's)
//         stdout (cut after 4 KiB), for reports.
// The client declares roots (answering roots/list with the scenario's) and tells the server when
// a scenario changes them. The crash scenario prints {"sync": …} lines and, where it waits for the
// test, reads a line from stdin; the transcript is always the last line.
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { ListRootsRequestSchema, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { startSite } from './loopback-site.mjs';

const [scenarioName, optionsJson, command, ...args] = process.argv.slice(2);
const options = JSON.parse(optionsJson ?? '{}');
const env = { ...process.env, ...(options.env ?? {}) };

// The fetch server reaches the loopback site through it as a proxy (see loopback-site.mjs).
const site = scenarioName === 'fetch' ? await startSite() : null;
if (site) {
  Object.assign(env, { HTTP_PROXY: site.proxyUrl, http_proxy: site.proxyUrl, NODE_USE_ENV_PROXY: '1' });
  for (const name of ['NO_PROXY', 'no_proxy', 'HTTPS_PROXY', 'https_proxy']) delete env[name];
}

const transport = new StdioClientTransport({ command, args, env, stderr: 'pipe' });
let stderr = '';
transport.stderr?.on('data', (chunk) => { stderr += chunk; });

// The lines the client reads, split as they come. The SDK's own ReadBuffer concatenates every chunk
// into one Buffer and scans it from the start after each (quadratic: the 40 MB line of a 20 MB file
// takes it 20 s here); this one parses each line with the SDK's own deserializeMessage, so the client
// receives the same messages (_readBuffer is the transport's own field in the pinned SDK, 1.32.2). It also keeps the raw line that answered each request, by JSON-RPC id.
const wireById = new Map();
const ready = [];
let pieces = [];
transport._readBuffer = {
  append(chunk) {
    let start = 0;
    let newline;
    while ((newline = chunk.indexOf(0x0a, start)) >= 0) {
      pieces.push(chunk.subarray(start, newline));
      const line = Buffer.concat(pieces).toString('utf8').replace(/\r$/, '');
      pieces = [];
      start = newline + 1;
      ready.push(line);
      const id = answeredId(line);
      if (id !== undefined) {
        wireById.set(id, line.length > 4096 ? `${line.slice(0, 4096)}… (${line.length} characters)` : line);
      }
    }
    if (start < chunk.length) pieces.push(chunk.subarray(start));
  },
  readMessage() {
    return ready.length === 0 ? null : deserializeMessage(ready.shift());
  },
  clear() {
    ready.length = 0;
    pieces = [];
  },
};
/** The id a line answers (a response, not a request of the server's), if any. */
function answeredId(line) {
  if (line.length < 1_000_000) {
    try {
      const message = JSON.parse(line);
      return message.method === undefined && typeof message.id === 'number' ? message.id : undefined;
    } catch {
      return undefined;
    }
  }
  const match = /"id"\s*:\s*(\d+)\s*}\s*$/.exec(line.slice(-200)) ?? /^\{"jsonrpc":"2\.0","id":(\d+),"result"/.exec(line.slice(0, 200));
  return match ? Number(match[1]) : undefined;
}
let lastRequestId;
const send = transport.send.bind(transport);
transport.send = (message, sendOptions) => {
  if (message.method && message.id !== undefined) lastRequestId = message.id;
  return send(message, sendOptions);
};

// Roots: the scenario's, asked for by the server (or by Warden for it).
let roots = options.roots ?? [];
const rootsAsked = [];
let rootsWaiter = null;
const client = new Client({ name: 'warden-differential', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
client.setRequestHandler(ListRootsRequestSchema, () => {
  rootsAsked.push(roots.slice());
  rootsWaiter?.();
  return { roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: dir.split('/').pop() })) };
});

const transcript = { scenario: scenarioName, steps: [], roots: { asked: rootsAsked } };

// ---- steps ------------------------------------------------------------------------------------

const LARGE = 64 * 1024;
function summarized(value) {
  if (typeof value === 'string') {
    return value.length > LARGE
      ? { $large: { length: value.length, sha256: createHash('sha256').update(value).digest('hex') } } : value;
  }
  if (Array.isArray(value)) return value.map(summarized);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, summarized(v)]));
  }
  return value;
}

function errorOf(e) {
  return { name: e?.constructor?.name, code: e?.code, message: e?.message, data: e?.data };
}

function perform(method, params, requestOptions) {
  switch (method) {
    case 'tools/list': return client.listTools(params, requestOptions);
    case 'tools/call': return client.callTool(params, undefined, requestOptions);
    case 'prompts/list': return client.listPrompts(params, requestOptions);
    case 'prompts/get': return client.getPrompt(params, requestOptions);
    case 'resources/list': return client.listResources(params, requestOptions);
    case 'resources/templates/list': return client.listResourceTemplates(params, requestOptions);
    case 'resources/read': return client.readResource(params, requestOptions);
    default: return client.request({ method, params }, ResultSchema, requestOptions);
  }
}

/** Runs one request, records it as a step and returns its outcome. */
async function step(name, kind, method, params, { expect, requestOptions } = {}) {
  let outcome;
  lastRequestId = undefined;
  const started = performance.now();
  try {
    outcome = { result: summarized(await perform(method, params, requestOptions)) };
  } catch (e) {
    outcome = { error: summarized(errorOf(e)) };
  }
  const record = { name, kind, request: summarized({ method, params }), outcome, ms: Math.round(performance.now() - started) };
  if (expect) record.expect = [expect].flat();
  record.wire = lastRequestId === undefined ? null : wireById.get(lastRequestId) ?? null;
  transcript.steps.push(record);
  return outcome;
}

const tool = (name, args) => ({ name, arguments: args });
const work = (name, toolName, toolArgs) => step(name, 'work', 'tools/call', tool(toolName, toolArgs));
const mistake = (name, expect, toolName, toolArgs) => step(name, 'mistake', 'tools/call', tool(toolName, toolArgs), { expect });
const unknownTool = () => step('unknown-tool', 'unknown', 'tools/call', tool('summarize_everything_probe', {}));
const listTools = () => step('list-tools', 'work', 'tools/list', {});
const same = (name, method, params = {}) => step(name, 'same', method, params);

const failed = (outcome) => outcome.error !== undefined || outcome.result?.isError === true;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Bounded polling of a condition, backing off (or waiting as long as `delayOf` says); true once it holds. */
async function eventually(condition, attempts = 20, delayOf = () => undefined) {
  for (let i = 0, delay = 10; i < attempts; i++, delay = Math.min(delay * 2, 500)) {
    const outcome = await condition();
    if (outcome === true) return true;
    if (i < attempts - 1) await pause(Math.min(delayOf(outcome) ?? delay, 60000));
  }
  return false;
}

/** The retryAfterMs of a Warden error in a failed call's result, if it has one. */
function retryAfterOf(outcome) {
  try {
    return JSON.parse(outcome.result?.content?.[0]?.text ?? '').error?.retryAfterMs;
  } catch {
    return undefined;
  }
}

/** Resolves true when the server has asked for roots `count` times in all, false after a hang guard. */
function rootsAskedTimes(count, guardMs = 15000) {
  if (rootsAsked.length >= count) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => { rootsWaiter = null; resolve(false); }, guardMs);
    rootsWaiter = () => {
      if (rootsAsked.length >= count) { clearTimeout(timer); rootsWaiter = null; resolve(true); }
    };
  });
}

/** Waits for server-filesystem to have taken `dirs` as its allowed directories (not a recorded step). */
async function allowedDirectoriesBecome(dirs) {
  const wanted = `Allowed directories:\n${dirs.join('\n')}`;
  return eventually(async () => {
    try {
      return (await client.callTool(tool('list_allowed_directories', {}))).content?.[0]?.text === wanted;
    } catch {
      return false;
    }
  });
}

// ---- scenarios --------------------------------------------------------------------------------

const scenarios = {
  async filesystem({ a, b }) {
    const file = (dir, name) => `${dir}/${name}`;
    transcript.roots.initial = {
      asked: await rootsAskedTimes(1),
      applied: await allowedDirectoriesBecome([a]),
    };
    await listTools();
    await work('allowed-directories', 'list_allowed_directories', {});
    await work('write-file', 'write_file', { path: file(a, 'notes.txt'), content: 'first line\nsecond line\n' });
    await work('read-file', 'read_text_file', { path: file(a, 'notes.txt') });
    await work('edit-file', 'edit_file', { path: file(a, 'notes.txt'), edits: [{ oldText: 'second line', newText: 'second line, edited' }] });
    await work('read-edited-file', 'read_text_file', { path: file(a, 'notes.txt') });
    await work('read-first-line', 'read_text_file', { path: file(a, 'notes.txt'), head: 1 });
    await work('read-file-deprecated-name', 'read_file', { path: file(a, 'notes.txt'), tail: 1 });
    await work('list-directory', 'list_directory', { path: a });
    await work('list-directory-with-sizes', 'list_directory_with_sizes', { path: a, sortBy: 'name' });
    await work('directory-tree', 'directory_tree', { path: a });
    await work('search-files', 'search_files', { path: a, pattern: '*.txt' });
    await work('create-directory', 'create_directory', { path: file(a, 'drafts') });
    await work('move-file', 'move_file', { source: file(a, 'notes.txt'), destination: file(a, 'drafts/notes.txt') });
    await work('read-multiple-files', 'read_multiple_files', { paths: [file(a, 'drafts/notes.txt'), file(a, 'ordinary.txt')] });
    await work('read-text-that-only-looks-sensitive', 'read_text_file', { path: file(a, 'ordinary.txt') });
    await work('read-file-with-credentials', 'read_text_file', { path: file(a, 'credentials.env') });
    await work('read-image', 'read_media_file', { path: file(a, 'pixel.png') });
    await work('read-20-mb-file', 'read_text_file', { path: file(a, 'big.txt') });

    await mistake('read-a-directory', 'VALIDATION_ERROR', 'read_text_file', { path: file(a, 'drafts') });
    await mistake('read-a-missing-file', 'NOT_FOUND', 'read_text_file', { path: file(a, 'missing.txt') });
    await mistake('edit-that-matches-nothing', ['VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT'], 'edit_file',
      { path: file(a, 'drafts/notes.txt'), edits: [{ oldText: 'a line that is not there', newText: 'x' }] });
    await mistake('move-onto-an-existing-file', 'CONFLICT', 'move_file', { source: file(a, 'drafts/notes.txt'), destination: file(a, 'ordinary.txt') });
    await mistake('read-outside-the-roots', 'PERMISSION_DENIED', 'read_text_file', { path: file(b, 'b.txt') });
    await mistake('write-outside-the-roots', 'PERMISSION_DENIED', 'write_file', { path: file(b, 'new.txt'), content: 'x' });
    await mistake('read-outside-every-directory', 'PERMISSION_DENIED', 'read_text_file', { path: '/etc/hostname' });
    await mistake('missing-argument', 'VALIDATION_ERROR', 'read_text_file', {});
    await mistake('argument-of-the-wrong-type', 'VALIDATION_ERROR', 'read_text_file', { path: 42 });
    await mistake('edits-not-a-list', 'VALIDATION_ERROR', 'edit_file', { path: file(a, 'drafts/notes.txt'), edits: 'replace all' });
    await unknownTool();
    await same('prompts-list', 'prompts/list');
    await same('resources-list', 'resources/list');

    if (options.burst) {
      for (let i = 1; i <= 50; i++) {
        const kind = i % 3;
        if (kind === 0) await mistake(`burst-${i}`, 'NOT_FOUND', 'read_text_file', { path: file(a, `missing-${i}.txt`) });
        if (kind === 1) await mistake(`burst-${i}`, 'VALIDATION_ERROR', 'read_text_file', { path: file(a, 'drafts') });
        if (kind === 2) await mistake(`burst-${i}`, 'PERMISSION_DENIED', 'read_text_file', { path: file(b, `b-${i}.txt`) });
      }
      await work('after-burst-good-call', 'read_text_file', { path: file(a, 'ordinary.txt') });
      await same('after-burst-resources-list', 'resources/list');
    }

    // The client now names only B: the server asks again and takes B alone.
    roots = [b];
    const before = rootsAsked.length;
    await client.sendRootsListChanged().catch((e) => { transcript.roots.notifyFailed = errorOf(e); });
    transcript.roots.changed = {
      asked: await rootsAskedTimes(before + 1),
      applied: await allowedDirectoriesBecome([b]),
    };
    await work('allowed-directories-after-roots-changed', 'list_allowed_directories', {});
    await work('read-inside-the-new-roots', 'read_text_file', { path: file(b, 'b.txt') });
    await mistake('read-outside-the-new-roots', 'PERMISSION_DENIED', 'read_text_file', { path: file(a, 'ordinary.txt') });
  },

  async memory() {
    await listTools();
    await work('create-entities', 'create_entities', { entities: [
      { name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first published program'] },
      { name: 'Analytical Engine', entityType: 'machine', observations: ['designed in 1837'] },
    ] });
    await work('create-relations', 'create_relations', { relations: [{ from: 'Ada Lovelace', to: 'Analytical Engine', relationType: 'programmed' }] });
    await work('add-observations', 'add_observations', { observations: [{ entityName: 'Ada Lovelace', contents: ['born 1815'] }] });
    await work('read-graph', 'read_graph', {});
    await work('search-nodes', 'search_nodes', { query: 'engine' });
    await work('open-nodes', 'open_nodes', { names: ['Ada Lovelace'] });
    await work('delete-observations', 'delete_observations', { deletions: [{ entityName: 'Ada Lovelace', observations: ['born 1815'] }] });
    await work('read-graph-again', 'read_graph', {});
    await mistake('observe-a-missing-entity', 'NOT_FOUND', 'add_observations', { observations: [{ entityName: 'Charles Babbage', contents: ['x'] }] });
    await mistake('entities-not-a-list', 'VALIDATION_ERROR', 'create_entities', { entities: 'Ada Lovelace' });
    await mistake('missing-argument', 'VALIDATION_ERROR', 'open_nodes', {});
    await unknownTool();
    await same('prompts-list', 'prompts/list');
    await same('resources-list', 'resources/list');
  },

  async everything() {
    await listTools();
    await work('echo', 'echo', { message: 'hello through warden' });
    await work('sum', 'get-sum', { a: 2, b: 3 });
    await work('tiny-image', 'get-tiny-image', {});
    await work('structured-content', 'get-structured-content', { location: 'Chicago' });
    await work('annotated-message', 'get-annotated-message', { messageType: 'success', includeImage: false });
    await work('resource-links', 'get-resource-links', { count: 2 });
    await step('long-running-operation', 'work', 'tools/call', tool('trigger-long-running-operation', { duration: 0.2, steps: 2 }),
      { requestOptions: { onprogress: () => {} } });
    await step('resources-list', 'work', 'resources/list', {});
    await step('resource-templates-list', 'work', 'resources/templates/list', {});
    const listed = transcript.steps.at(-2).outcome.result?.resources ?? [];
    await step('resources-read', 'work', 'resources/read', { uri: listed[0]?.uri ?? 'demo://resource/static/document/architecture.md' });
    await step('prompts-list', 'work', 'prompts/list', {});
    await step('prompts-get', 'work', 'prompts/get', { name: 'simple-prompt' });
    await mistake('argument-of-the-wrong-type', 'VALIDATION_ERROR', 'get-sum', { a: 'two', b: 3 });
    await mistake('value-not-in-the-enum', 'VALIDATION_ERROR', 'get-structured-content', { location: 'Atlantis' });
    await mistake('missing-argument', 'VALIDATION_ERROR', 'echo', {});
    await unknownTool();
    await same('read-a-missing-resource', 'resources/read', { uri: 'demo://resource/static/document/no-such-document.md' });
    await same('get-a-missing-prompt', 'prompts/get', { name: 'no-such-prompt' });
  },

  async 'sequential-thinking'() {
    await listTools();
    const thought = (n, total, more, extra = {}) => ({ thought: `Step ${n}: narrow the question down.`, thoughtNumber: n, totalThoughts: total, nextThoughtNeeded: more, ...extra });
    await work('first-thought', 'sequentialthinking', thought(1, 3, true));
    await work('second-thought', 'sequentialthinking', thought(2, 3, true));
    await work('revision', 'sequentialthinking', thought(3, 3, true, { isRevision: true, revisesThought: 1 }));
    await work('branch', 'sequentialthinking', thought(4, 4, false, { branchFromThought: 2, branchId: 'alternative' }));
    await mistake('missing-arguments', 'VALIDATION_ERROR', 'sequentialthinking', { thought: 'only a thought' });
    await mistake('thought-number-zero', 'VALIDATION_ERROR', 'sequentialthinking', thought(0, 3, true));
    await mistake('argument-of-the-wrong-type', 'VALIDATION_ERROR', 'sequentialthinking', { ...thought(1, 3, true), thoughtNumber: 'one' });
    await unknownTool();
    await same('prompts-list', 'prompts/list');
    await same('resources-list', 'resources/list');
  },

  async postgres() {
    const query = (sql) => ({ sql });
    await listTools();
    await step('resources-list', 'work', 'resources/list', {});
    const uri = transcript.steps.at(-1).outcome.result?.resources?.find((r) => r.uri.includes('/customers/'))?.uri;
    await step('resources-read', 'work', 'resources/read', { uri: uri ?? 'postgres://missing/customers/schema' });
    await work('select', 'query', query('SELECT id, email FROM customers WHERE id = 1'));
    await work('count', 'query', query('SELECT count(*) AS n FROM customers'));
    await work('expression', 'query', query("SELECT 6 * 7 AS answer, 'ada' || '@' || 'example.com' AS email"));
    await mistake('select-typo', 'VALIDATION_ERROR', 'query', query('SELEC email FROM customers'));
    await mistake('statement-cut-short', 'VALIDATION_ERROR', 'query', query('SELECT email FROM'));
    await mistake('missing-table', 'NOT_FOUND', 'query', query('SELECT * FROM no_such_table'));
    await mistake('missing-column', 'NOT_FOUND', 'query', query('SELECT no_such_column FROM customers'));
    await mistake('value-of-the-wrong-type', 'VALIDATION_ERROR', 'query', query("SELECT * FROM customers WHERE id = 'one'"));
    await mistake('division-by-zero', 'VALIDATION_ERROR', 'query', query('SELECT 1 / 0'));
    await mistake('write-in-a-read-only-transaction', 'PERMISSION_DENIED', 'query', query("INSERT INTO customers VALUES (2, 'x@example.com')"));
    await unknownTool();
    await same('prompts-list', 'prompts/list');
    if (options.burst) {
      for (let i = 1; i <= 50; i++) {
        if (i % 2) await mistake(`burst-${i}`, 'VALIDATION_ERROR', 'query', query(`SELEC email FROM customers WHERE id = ${i}`));
        else await mistake(`burst-${i}`, 'NOT_FOUND', 'query', query(`SELECT * FROM no_such_table_${i}`));
      }
      await work('after-burst-good-call', 'query', query('SELECT id, email FROM customers WHERE id = 1'));
      await step('after-burst-resources-list', 'work', 'resources/list', {});
    }
  },

  async dbhub() {
    const sql = (text) => ({ sql: text });
    await listTools();
    await work('create-table', 'execute_sql', sql('CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, year INTEGER)'));
    await work('insert', 'execute_sql', sql("INSERT INTO books VALUES (1, 'Sketch of the Analytical Engine', 1843), (2, 'Passages from the Life of a Philosopher', 1864)"));
    await work('select', 'execute_sql', sql('SELECT id, title, year FROM books ORDER BY id'));
    await work('update', 'execute_sql', sql('UPDATE books SET year = 1842 WHERE id = 1'));
    await work('search-tables', 'search_objects', { object_type: 'table' });
    await work('search-columns', 'search_objects', { object_type: 'column', schema: 'main', table: 'books', detail_level: 'full' });
    await mistake('select-typo', 'VALIDATION_ERROR', 'execute_sql', sql('SELEC title FROM books'));
    await mistake('statement-cut-short', 'VALIDATION_ERROR', 'execute_sql', sql('SELECT title FROM'));
    await mistake('missing-table', 'NOT_FOUND', 'execute_sql', sql('SELECT * FROM no_such_table'));
    await mistake('missing-column', 'NOT_FOUND', 'execute_sql', sql('SELECT no_such_column FROM books'));
    await mistake('duplicate-key', 'CONFLICT', 'execute_sql', sql("INSERT INTO books VALUES (1, 'Another title', 1900)"));
    await mistake('not-null-violated', 'VALIDATION_ERROR', 'execute_sql', sql('INSERT INTO books (id) VALUES (3)'));
    await mistake('missing-argument', 'VALIDATION_ERROR', 'execute_sql', {});
    await mistake('value-not-in-the-enum', 'VALIDATION_ERROR', 'search_objects', { object_type: 'galaxy' });
    await unknownTool();
    await same('prompts-list', 'prompts/list');
    await same('resources-list', 'resources/list');
  },

  async sqlite() {
    await listTools();
    await work('list-tables-of-an-empty-database', 'list_tables', {});
    await work('create-table', 'query', { sql: 'CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, year INTEGER)' });
    await work('create-record', 'create_record', { table: 'books', data: { id: 1, title: 'Sketch of the Analytical Engine', year: 1843 } });
    await work('create-another-record', 'create_record', { table: 'books', data: { id: 2, title: 'Passages from the Life of a Philosopher', year: 1864 } });
    await work('read-records', 'read_records', { table: 'books' });
    await work('read-records-where', 'read_records', { table: 'books', conditions: { year: 1843 }, limit: 1 });
    await work('update-records', 'update_records', { table: 'books', data: { year: 1842 }, conditions: { id: 1 } });
    await work('query', 'query', { sql: 'SELECT title FROM books WHERE year < ?', values: [1850] });
    await work('list-tables', 'list_tables', {});
    await work('table-schema', 'get_table_schema', { tableName: 'books' });
    await work('delete-records', 'delete_records', { table: 'books', conditions: { id: 2 } });
    await mistake('select-typo', 'VALIDATION_ERROR', 'query', { sql: 'SELEC title FROM books' });
    await mistake('statement-cut-short', 'VALIDATION_ERROR', 'query', { sql: 'SELECT title FROM' });
    await mistake('missing-table-in-sql', 'NOT_FOUND', 'query', { sql: 'SELECT * FROM no_such_table' });
    await mistake('missing-column-in-sql', 'NOT_FOUND', 'query', { sql: 'SELECT no_such_column FROM books' });
    await mistake('missing-table', 'NOT_FOUND', 'read_records', { table: 'no_such_table' });
    await mistake('missing-column', 'NOT_FOUND', 'create_record', { table: 'books', data: { id: 9, no_such_column: 'x' } });
    await mistake('duplicate-key', 'CONFLICT', 'create_record', { table: 'books', data: { id: 1, title: 'Another title' } });
    await mistake('missing-argument', 'VALIDATION_ERROR', 'query', {});
    await unknownTool();
    await same('prompts-list', 'prompts/list');
    await same('resources-list', 'resources/list');
  },

  async fetch() {
    const page = (path, extra = {}) => ({ url: `${site.base}${path}`, ...extra });
    await listTools();
    await work('fetch-html', 'fetch_html', page('/article.html'));
    await work('fetch-markdown', 'fetch_markdown', page('/article.html'));
    await work('fetch-text', 'fetch_txt', page('/article.html'));
    await work('fetch-readable', 'fetch_readable', page('/article.html'));
    await work('fetch-json', 'fetch_json', page('/data.json'));
    await work('fetch-plain-text', 'fetch_html', page('/plain.txt'));
    await work('fetch-a-slice', 'fetch_html', page('/article.html', { max_length: 40, start_index: 10 }));
    await mistake('invalid-url', 'VALIDATION_ERROR', 'fetch_html', { url: 'not a url' });
    await mistake('missing-argument', 'VALIDATION_ERROR', 'fetch_markdown', {});
    await mistake('page-not-found', 'NOT_FOUND', 'fetch_html', page('/no-such-page'));
    await mistake('private-address', 'PERMISSION_DENIED', 'fetch_html', { url: 'http://127.0.0.1:9/' });
    await mistake('not-http', ['VALIDATION_ERROR', 'PERMISSION_DENIED'], 'fetch_txt', { url: 'file:///etc/hostname' });
    await unknownTool();
    await same('prompts-list', 'prompts/list');
    await same('resources-list', 'resources/list');
    if (options.burst) {
      for (let i = 1; i <= 50; i++) {
        if (i % 2) await mistake(`burst-${i}`, 'VALIDATION_ERROR', 'fetch_html', { url: `not a url ${i}` });
        else await mistake(`burst-${i}`, 'NOT_FOUND', 'fetch_html', page(`/missing-${i}`));
      }
      await work('after-burst-good-call', 'fetch_html', page('/plain.txt'));
      await same('after-burst-resources-list', 'resources/list');
    }
  },

  // Through wrap only: the test kills the real server when it prints {"sync":"in-flight"} (a call
  // reached the server) and when it prints {"sync":"between-calls"} (then answers on stdin).
  async crash() {
    const sync = (what) => console.log(JSON.stringify({ sync: what }));
    const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
    const echo = (message) => client.callTool(tool('echo', { message }));
    const recovered = async (name) => {
      const attempts = [];
      // A paused (breaker-open) server says when to come back: retryAfterMs is honoured.
      const ok = await eventually(async () => {
        const outcome = await step(`${name}-attempt-${attempts.length + 1}`, 'recovery', 'tools/call', tool('echo', { message: 'back again' }));
        attempts.push(outcome);
        return failed(outcome) ? outcome : true;
      }, 25, retryAfterOf);
      transcript[name] = { ok, attempts: attempts.length };
    };
    await work('before-the-crash', 'echo', { message: 'back again' });
    let announced = false;
    await step('call-in-flight-when-killed', 'crash', 'tools/call', tool('trigger-long-running-operation', { duration: 60, steps: 60 }), {
      requestOptions: { onprogress: () => { if (!announced) { announced = true; sync('in-flight'); } } },
    });
    await recovered('recovered-after-kill-in-flight');
    await echo('idle');
    sync('between-calls');
    await lines.next();
    await step('first-call-after-kill-between-calls', 'crash', 'tools/call', tool('echo', { message: 'back again' }));
    await recovered('recovered-after-kill-between-calls');
    // A server that keeps crashing mid-call is paused: calls that are killed in flight, until one
    // is refused before it reaches the server, saying when to come back (retryAfterMs); at most 20.
    transcript.pause = null;
    for (let i = 1; i <= 20 && !transcript.pause; i++) {
      let reached = false;
      const outcome = await step(`crash-${i}`, 'crash', 'tools/call', tool('trigger-long-running-operation', { duration: 60, steps: 600 }), {
        requestOptions: { onprogress: () => { if (!reached) { reached = true; sync('in-flight'); } } },
      });
      if (!reached && retryAfterOf(outcome) !== undefined) transcript.pause = { afterCrashes: i - 1, step: `crash-${i}` };
    }
    await recovered('recovered-after-pause');
  },
};

const scenario = scenarios[scenarioName];
if (!scenario) {
  console.error(`unknown scenario ${scenarioName}; one of ${Object.keys(scenarios).join(', ')}`);
  process.exit(2);
}
await client.connect(transport);
transcript.server = {
  info: client.getServerVersion(), capabilities: client.getServerCapabilities(), instructions: client.getInstructions() ?? null,
  initializeWire: wireById.get(0) ?? null,
};
try {
  await scenario(options);
} catch (e) {
  transcript.aborted = errorOf(e);
}
await client.close();
site?.close();
transcript.stderr = stderr.length > 20000 ? `${stderr.slice(0, 20000)}…` : stderr;
console.log(JSON.stringify(transcript));
