// The outside services the Java servers call, mocked on loopback (the harness starts this file on
// ${port:api}; the port comes as --port N, the first argument, or PORT). Each answers the way a real
// SaaS API does, including the failures: a 503 whose body names internal hosts, a 429 with
// Retry-After, a 500 from a carrier with its own stack trace. Nothing here is a secret the client may
// see: the session files list what must not reach it.
import { createServer } from 'node:http';

const argv = process.argv.slice(2);
const flag = argv.indexOf('--port');
const port = Number(flag >= 0 ? argv[flag + 1] : (argv[0] ?? process.env.PORT ?? 0));

const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const routes = [
  // CRM enrichment (mcp-java-sdk-crm)
  [/^\/v1\/companies\/lovelace\.example$/, (res) => json(res, 200, { domain: 'lovelace.example', name: 'Lovelace Analytical Engines', employees: 42 })],
  [/^\/v1\/companies\/flaky\.example$/, (res) => json(res, 503, { error: 'enrichment backend unavailable', node: 'enrich-worker-7.int.acme-data.net', db: 'postgres://enrich:s3cr3t-pw@10.40.2.15:5432/companies' })],
  [/^\/v1\/companies\/busy\.example$/, (res) => json(res, 429, { error: 'rate limit exceeded for key sk_live_51Hcrm0nlyTheServerKnows' }, { 'retry-after': '30' })],
  [/^\/v1\/companies\//, (res) => json(res, 404, { error: 'company not found' })],
  // FX rates (spring-ai-invoicing)
  [/^\/v1\/rates\/EUR\/(USD|GBP|EUR)$/, (res) => json(res, 200, { rate: 1.0843, as_of: '2026-11-28' })],
  [/^\/v1\/rates\/GBP\//, (res) => json(res, 503, { error: 'rates feed stale', feed: 'fx-ingest-3.prod.fxcorp.internal', trace: 'java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available' })],
  [/^\/v1\/rates\//, (res) => json(res, 200, { rate: 0.9221, as_of: '2026-11-28' })],
  // Carrier tracking (quarkus-mcp-orders)
  [/^\/track\/v1\/1Z999AA10123456784$/, (res) => json(res, 200, { status: 'IN_TRANSIT', last_scan: 'Leipzig hub' })],
  [/^\/track\/v1\//, (res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('Internal Server Error\ncom.carrier.track.LookupException: shard track-db-12.dc2.carrier.internal timed out\n\tat com.carrier.track.Lookup.find(Lookup.java:88)');
  }],
];

createServer((req, res) => {
  const path = new URL(req.url, 'http://localhost').pathname;
  const route = routes.find(([pattern]) => pattern.test(path));
  if (route) route[1](res, req);
  else json(res, 404, { error: 'no route' });
}).listen(port, '127.0.0.1', function ready() {
  process.stdout.write(`listening on ${this.address().port}\n`);
});
