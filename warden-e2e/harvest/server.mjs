// An MCP server on the official TypeScript SDK whose tools really fail against real dependencies:
// PostgreSQL (pg), MariaDB (mysql2), SQLite (better-sqlite3), the file system, HTTP APIs on
// loopback, and validation libraries (zod, ajv, joi). scripts/harvest-corpus runs it and captures
// verbatim the JSON-RPC frames it sends. Everything server-side (users, passwords, databases,
// schemas, constraints, directories, hosts) comes from the environment, where the harvest planted
// canaries; the caller only ever sends its own SQL, paths and values.
//
// Two habits of real servers, both kept: a tool that throws (the SDK renders error.message into an
// isError text), and a "_detail" variant that catches and returns the error object as JSON (what
// servers do to "help the model", and how pg's detail/schema/constraint fields leak).
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import Ajv from 'ajv';
import Joi from 'joi';
import pg from 'pg';
import mysql from 'mysql2/promise';
import Database from 'better-sqlite3';

const env = process.env;
const server = new McpServer({ name: 'harvest', version: '1.0.0' }, { capabilities: { logging: {} } });

/** The error as a JSON text, with its own enumerable fields (pg: detail, schema, table, constraint, where…). */
const detailOf = (err) => JSON.stringify({ error: err.message, name: err.name, ...err, stack: err.stack });
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const failWithDetail = (err) => ({ content: [{ type: 'text', text: detailOf(err) }], isError: true });

function both(name, run) {
  server.registerTool(name, { inputSchema: { sql: z.string() } }, async ({ sql }) => text(await run(sql)));
  server.registerTool(`${name}_detail`, { inputSchema: { sql: z.string() } }, async ({ sql }) => {
    try {
      return text(await run(sql));
    } catch (err) {
      return failWithDetail(err);
    }
  });
}

async function pgQuery(url, sql) {
  const client = new pg.Client({ connectionString: url, statement_timeout: 200, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const r = await client.query(sql);
    return JSON.stringify(r.rows);
  } finally {
    await client.end();
  }
}
both('pg_query', (sql) => pgQuery(env.PG_URL, sql));
both('pg_replica_query', (sql) => pgQuery(env.PG_BAD_PASSWORD_URL, sql));
both('pg_archive_query', (sql) => pgQuery(env.PG_REFUSED_URL, sql));

async function mariaQuery(config, sql) {
  const conn = await mysql.createConnection({ ...config, connectTimeout: 3000 });
  try {
    const [rows] = await conn.query(sql);
    return JSON.stringify(rows);
  } finally {
    await conn.end();
  }
}
const maria = env.MARIADB_CONFIG ? JSON.parse(env.MARIADB_CONFIG) : null;
both('mariadb_query', (sql) => mariaQuery(maria, sql));
both('mariadb_replica_query', (sql) => mariaQuery({ ...maria, password: env.MARIADB_BAD_PASSWORD }, sql));

both('sqlite_query', async (sql) => {
  const db = new Database(env.SQLITE_PATH, { fileMustExist: true });
  db.pragma('foreign_keys = ON');
  try {
    const stmt = db.prepare(sql);
    return JSON.stringify(stmt.reader ? stmt.all() : stmt.run());
  } finally {
    db.close();
  }
});
both('sqlite_archive_query', async (sql) => {
  const db = new Database(env.SQLITE_MISSING_PATH, { fileMustExist: true });
  return JSON.stringify(db.prepare(sql).all());
});

// The file system: the caller names a path relative to the server's root.
for (const [name, op] of [['read_file', (p) => readFile(p, 'utf8')],
  ['list_dir', async (p) => (await readdir(p)).join('\n')]]) {
  server.registerTool(name, { inputSchema: { path: z.string() } }, async (args) => text(await op(path.join(env.FILE_ROOT, args.path))));
  server.registerTool(`${name}_detail`, { inputSchema: { path: z.string() } }, async (args) => {
    try {
      return text(await op(path.join(env.FILE_ROOT, args.path)));
    } catch (err) {
      return failWithDetail(err);
    }
  });
}

// HTTP APIs on loopback: the server reports the API's answer the way many do, status and body.
server.registerTool('api_get', { inputSchema: { api: z.enum(['express', 'python']), path: z.string() } },
  async (args) => {
    const base = args.api === 'express' ? env.EXPRESS_URL : env.PYTHON_URL;
    const response = await fetch(base + args.path);
    const body = await response.text();
    if (!response.ok) {
      throw new Error(`API request failed with status ${response.status}: ${body}`);
    }
    return text(body);
  });

// Validation: the caller's arguments checked by the library, its error surfaced as the library renders it.
const Signup = z.object({ email: z.string().email(), name: z.string().min(1) });
server.registerTool('signup_zod', { inputSchema: { email: z.string(), name: z.string() } }, async (args) => {
  Signup.parse(args);
  return text('signed up');
});
server.registerTool('signup_zod_sdk', { inputSchema: { email: z.string().email(), name: z.string().min(1) } },
  async () => text('signed up'));
const ajv = new Ajv({ allErrors: true });
const addFormats = (await import('ajv-formats').catch(() => null))?.default;
if (addFormats) addFormats(ajv);
else ajv.addFormat('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
const validateSignup = ajv.compile({ type: 'object', required: ['email', 'name'],
  properties: { email: { type: 'string', format: 'email' }, name: { type: 'string', minLength: 1 } } });
server.registerTool('signup_ajv', { inputSchema: { email: z.string(), name: z.string() } }, async (args) => {
  if (!validateSignup(args)) {
    return { content: [{ type: 'text', text: JSON.stringify({ errors: validateSignup.errors }) }], isError: true };
  }
  return text('signed up');
});
const joiSignup = Joi.object({ email: Joi.string().email().required(), name: Joi.string().min(1).required() });
server.registerTool('signup_joi', { inputSchema: { email: z.string(), name: z.string() } }, async (args) => {
  const { error } = joiSignup.validate(args, { abortEarly: false });
  if (error) throw error;
  return text('signed up');
});
server.registerTool('signup_joi_detail', { inputSchema: { email: z.string(), name: z.string() } }, async (args) => {
  const { error } = joiSignup.validate(args, { abortEarly: false });
  if (error) return { content: [{ type: 'text', text: JSON.stringify({ error: error.message, details: error.details }) }], isError: true };
  return text('signed up');
});

// A tool that logs its failure to the client (notifications/message), as servers with logging do.
server.registerTool('pg_query_logged', { inputSchema: { sql: z.string() } }, async ({ sql }) => {
  try {
    return text(await pgQuery(env.PG_URL, sql));
  } catch (err) {
    await server.server.sendLoggingMessage({ level: 'error', logger: 'db', data: { message: err.message, stack: err.stack, detail: err.detail } });
    throw err;
  }
});

await server.connect(new StdioServerTransport());
