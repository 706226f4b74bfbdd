// A stand-in for the SaaS APIs the servers call (GitLab v4, Notion v1, Slack Web API, Brave Search),
// on 127.0.0.1, answering as the real APIs document: their success bodies, their 4xx JSON error
// bodies, a 5xx, and a 429 with Retry-After. Which answer comes is chosen by the request (a
// project, a page id, a query), so one session holds ordinary work and each failure.
//
// Usage: node saas-api.mjs <port>
import http from 'node:http';

const port = Number(process.argv[2]);
const PRIVATE = 'internal-only: tenant acme-prod-eu1, shard db-pg-14.gitlab.internal';

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function bodyOf(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  try { return text ? JSON.parse(text) : {}; } catch { return { $raw: text }; }
}

// ---- GitLab v4 ----------------------------------------------------------------------------------
const USER = { username: 'ada', id: 17, name: 'Ada', avatar_url: 'https://gitlab.example/ada.png', web_url: 'https://gitlab.example/ada' };
const PROJECT = { id: 7, name: 'shop', path_with_namespace: 'acme/shop', visibility: 'private', web_url: 'https://gitlab.example/acme/shop',
  description: 'The storefront', ssh_url_to_repo: 'git@gitlab.example:acme/shop.git', http_url_to_repo: 'https://gitlab.example/acme/shop.git',
  created_at: '2025-01-01T00:00:00.000Z', last_activity_at: '2026-11-27T00:00:00.000Z', default_branch: 'main' };
const README = Buffer.from('# shop\n\nThe storefront.\n').toString('base64');
async function gitlab(req, res, url) {
  const path = url.pathname.slice('/api/v4'.length);
  let m;
  if (req.method === 'GET' && path === '/projects') {
    const q = url.searchParams.get('search');
    if (q === 'flaky') return send(res, 500, { message: '500 Internal Server Error' }, { 'x-request-id': PRIVATE });
    if (q === 'busy') return send(res, 429, { message: 'Retry later' }, { 'retry-after': '30' });
    return send(res, 200, [PROJECT], { 'x-total': '1', 'x-total-pages': '1' });
  }
  if ((m = /^\/projects\/([^/]+)\/repository\/files\/([^/]+)$/.exec(path)) && req.method === 'GET') {
    const project = decodeURIComponent(m[1]);
    const file = decodeURIComponent(m[2]);
    if (project === 'acme/shop' && file === 'README.md') {
      return send(res, 200, { file_name: 'README.md', file_path: 'README.md', size: 24, encoding: 'base64', content: README,
        content_sha256: '4c2e9f0b7a1d', ref: 'main', blob_id: '79f7bbd25901e8334750839545a9bd021f0e4c83', last_commit_id: '3f1c2ab' });
    }
    if (project === 'acme/shop') return send(res, 404, { message: '404 File Not Found' });
    return send(res, 404, { message: '404 Project Not Found' });
  }
  if ((m = /^\/projects\/([^/]+)\/issues$/.exec(path)) && req.method === 'POST') {
    const project = decodeURIComponent(m[1]);
    const body = await bodyOf(req);
    if (project === 'acme/locked') return send(res, 403, { message: '403 Forbidden' });
    if (!body.title) return send(res, 400, { message: { title: ["can't be blank"] } });
    return send(res, 201, { id: 901, iid: 12, project_id: 7, title: body.title, description: body.description ?? '', state: 'opened',
      author: USER, assignees: [], labels: [], milestone: null, created_at: '2026-11-28T10:00:00.000Z',
      updated_at: '2026-11-28T10:00:00.000Z', closed_at: null, web_url: 'https://gitlab.example/acme/shop/-/issues/12' });
  }
  if ((m = /^\/projects\/([^/]+)\/repository\/branches$/.exec(path)) && req.method === 'POST') {
    const body = await bodyOf(req);
    if (body.branch === 'main') return send(res, 400, { message: 'Branch already exists' });
    return send(res, 201, { name: body.branch, commit: { id: '3f1c2ab', web_url: 'https://gitlab.example/acme/shop/-/commit/3f1c2ab' }, protected: false });
  }
  return send(res, 404, { message: '404 Not Found' });
}

// ---- Notion v1 ----------------------------------------------------------------------------------
const PAGE = '59833787-2cf9-4fdf-8782-e53db20768a5';
async function notion(req, res, url) {
  const path = url.pathname;
  let m;
  if ((m = /^\/v1\/pages\/([^/]+)$/.exec(path)) && req.method === 'GET') {
    if (m[1] === PAGE) {
      return send(res, 200, { object: 'page', id: PAGE, created_time: '2026-01-01T00:00:00.000Z', archived: false,
        properties: { title: { id: 'title', type: 'title', title: [{ plain_text: 'Launch plan' }] } } });
    }
    if (m[1] === 'aaaaaaaa-0000-0000-0000-000000000429') {
      return send(res, 429, { object: 'error', status: 429, code: 'rate_limited', message: 'You have been rate limited. Please try again in a few minutes.' }, { 'retry-after': '12' });
    }
    if (m[1] === 'aaaaaaaa-0000-0000-0000-000000000500') {
      return send(res, 500, { object: 'error', status: 500, code: 'internal_server_error', message: 'Unexpected error occurred.' });
    }
    return send(res, 404, { object: 'error', status: 404, code: 'object_not_found',
      message: `Could not find page with ID: ${m[1]}. Make sure the relevant pages and databases are shared with your integration.` });
  }
  if (path === '/v1/search' && req.method === 'POST') {
    const body = await bodyOf(req);
    if (body.page_size !== undefined && (body.page_size < 1 || body.page_size > 100)) {
      return send(res, 400, { object: 'error', status: 400, code: 'validation_error', message: `body failed validation: body.page_size should be ≤ \`100\`, instead was \`${body.page_size}\`.` });
    }
    return send(res, 200, { object: 'list', results: [{ object: 'page', id: PAGE }], next_cursor: null, has_more: false });
  }
  return send(res, 404, { object: 'error', status: 404, code: 'invalid_request_url', message: 'Invalid request URL.' });
}

// ---- Slack Web API ------------------------------------------------------------------------------
async function slack(req, res, url) {
  const method = url.pathname.slice('/api/'.length);
  const body = req.method === 'POST' ? await bodyOf(req) : Object.fromEntries(url.searchParams);
  if (method === 'conversations.list') {
    return send(res, 200, { ok: true, channels: [{ id: 'C0123', name: 'general', is_member: true }], response_metadata: { next_cursor: '' } });
  }
  if (method === 'chat.postMessage') {
    if (body.channel === 'C0BUSY') return send(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': '30' });
    if (body.channel !== 'C0123') return send(res, 200, { ok: false, error: 'channel_not_found' });
    return send(res, 200, { ok: true, channel: 'C0123', ts: '1764300000.000100', message: { text: body.text } });
  }
  if (method === 'users.profile.get') {
    if (body.user !== 'U0ADA') return send(res, 200, { ok: false, error: 'user_not_found' });
    return send(res, 200, { ok: true, profile: { real_name: 'Ada', display_name: 'ada', title: 'Engineer' } });
  }
  if (method === 'users.info') {
    if (body.user !== 'U0ADA') return send(res, 200, { ok: false, error: 'user_not_found' });
    return send(res, 200, { ok: true, user: { id: 'U0ADA', name: 'ada', real_name: 'Ada' } });
  }
  return send(res, 200, { ok: false, error: 'unknown_method' });
}

// ---- Brave Search -------------------------------------------------------------------------------
function brave(req, res, url) {
  const q = url.searchParams.get('q') ?? '';
  if (q === 'rate limited please') {
    return send(res, 429, { type: 'ErrorResponse', error: { id: 'e-429', status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.', meta: { plan: 'Free', rate_limit: 1, rate_current: 2 } }, time: 1764300000 },
      { 'retry-after': '1', 'x-ratelimit-reset': '1' });
  }
  if (q === 'server error please') return send(res, 500, { type: 'ErrorResponse', error: { status: 500, code: 'INTERNAL_ERROR', detail: 'Upstream search cluster eu-search-7.brave.internal failed.' } });
  if (q === 'bad key please') return send(res, 401, { type: 'ErrorResponse', error: { status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' } });
  return send(res, 200, { type: 'search', query: { original: q }, web: { type: 'search', results: [
    { title: 'Model Context Protocol', url: 'https://modelcontextprotocol.io/', description: 'An open protocol for tools.', type: 'search_result' },
  ] } });
}

// ---- PostgREST (Supabase's /rest/v1) -----------------------------------------------------------------
async function postgrest(req, res, url) {
  const table = url.pathname.slice('/rest/v1/'.length);
  if (table === 'todos' && req.method === 'GET') return send(res, 200, [{ id: 1, title: 'ship the release', done: false }]);
  if (table === 'todos' && req.method === 'POST') {
    const body = await bodyOf(req);
    if (body.id === 1) {
      return send(res, 409, { code: '23505', details: 'Key (id)=(1) already exists.', hint: null,
        message: 'duplicate key value violates unique constraint "todos_pkey"' });
    }
    return send(res, 201, [{ id: body.id ?? 2, title: body.title ?? null, done: false }]);
  }
  if (table === 'payroll') return send(res, 401, { code: '42501', details: null, hint: null, message: 'permission denied for table payroll' });
  return send(res, 404, { code: 'PGRST205', details: null, hint: "Perhaps you meant the table 'public.todos'",
    message: `Could not find the table 'public.${table}' in the schema cache` });
}

// ---- A small web page for the browser servers ------------------------------------------------------
function site(res, url) {
  if (url.pathname === '/site/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return res.end('<!doctype html><title>Shop</title><h1>Shop</h1><p>Winter sale.</p>'
      + '<form onsubmit="event.preventDefault(); document.querySelector(\'#out\').textContent = \'Subscribed \' + this.email.value">'
      + '<label>Email <input name="email"></label><button>Subscribe</button></form><p id="out"></p>');
  }
  res.writeHead(404, { 'content-type': 'text/html' });
  return res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
}

http.createServer(async (req, res) => {
  const url = new URL(req.url, `http://127.0.0.1:${port}`);
  try {
    if (url.pathname === '/favicon.ico') { res.writeHead(204); return res.end(); } // no console error to race
    if (url.pathname.startsWith('/site/')) return site(res, url);
    if (url.pathname.startsWith('/rest/v1/')) return await postgrest(req, res, url);
    if (url.pathname.startsWith('/api/v4/')) return await gitlab(req, res, url);
    if (url.pathname.startsWith('/v1/')) return await notion(req, res, url);
    if (url.pathname.startsWith('/api/')) return await slack(req, res, url);
    if (url.pathname.startsWith('/res/v1/')) return brave(req, res, url);
    return send(res, 404, { message: 'no such API' });
  } catch (e) {
    return send(res, 500, { message: String(e) });
  }
}).listen(port, '127.0.0.1');
