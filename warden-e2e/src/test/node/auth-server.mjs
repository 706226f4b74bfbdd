// A real OAuth 2.1 authorization server for the end-to-end tests of Warden as a resource server:
// oidc-provider (panva, OpenID Certified) on loopback, so the gateway is tested against the
// standards it claims (RFC 8707 resource indicators -> at+jwt with aud = the resource; RFC 7662
// introspection of opaque tokens; RFC 7591 dynamic registration; auth code + PKCE; RFC 8693 token
// exchange), not against tokens the test wrote itself.
//
// Usage: node auth-server.mjs            (stdout: ONE JSON line when ready, then nothing)
//   {"issuer":"http://127.0.0.1:PORT","signKid":"k1","kids":["k1","k2","k3"]}
// Env:
//   AS_EXIT_WITH_STDIN=1  exit when stdin ends (the test JVM that started it is gone)
//   AS_PORT       port on 127.0.0.1; 0 (default) = ephemeral, the issuer line says which
//   AS_RESOURCES  the resources it issues tokens for: a JSON file, or the JSON itself (starts with "{"):
//                 { "<resource uri>": { "format": "jwt"|"opaque", "scopes": ["mcp:tools", ...], "ttl": 300 } }
//                 The key "*" stands for any other resource URI (aud = that URI): the gateway's own URL
//                 is only known after it started on port 0, and it needs the issuer before it starts.
//                 Default: { "*": { "format": "jwt", "scopes": ["mcp:tools", "mcp:admin"] } }
// Clients (fixed, test-only secrets):
//   warden-test / warden-test-secret       confidential: client_credentials, token exchange
//   warden-gateway / warden-gateway-secret  confidential: introspection (RFC 7662 needs client auth), token exchange
//   anyone else: open dynamic registration (public clients, PKCE required); login is headless:
//   the authorization request's login_hint is the subject (default alice), consent is automatic.
// Keys: generated at every start, never written anywhere: k1, k2 (RS256) and k3 (ES256).
// Test-only admin routes (loopback only, like the whole server): see admin() below.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { SignJWT, createLocalJWKSet, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import Provider, { errors } from 'oidc-provider';
import ResourceServer from 'oidc-provider/lib/helpers/resource_server.js';

const HOST = '127.0.0.1';
const PORT = Number(process.env.AS_PORT ?? 0);

function loadResources() {
  const text = process.env.AS_RESOURCES;
  const raw = !text ? { '*': { format: 'jwt', scopes: ['mcp:tools', 'mcp:admin'] } }
    : JSON.parse(text.trimStart().startsWith('{') ? text : fs.readFileSync(text, 'utf8'));
  for (const [uri, r] of Object.entries(raw)) {
    if (!['jwt', 'opaque', undefined].includes(r.format)) throw new Error(`${uri}: format must be jwt or opaque`);
    r.scopes = Array.isArray(r.scopes) ? r.scopes : String(r.scopes ?? '').split(' ').filter(Boolean);
    if (r.scopes.length === 0) throw new Error(`${uri}: scopes must not be empty`);
  }
  return raw;
}
const resources = loadResources();
const resourceFor = (uri) => resources[uri] ?? (uri ? resources['*'] : undefined);

function newKey(kid, type) {
  const { privateKey } = type === 'ec'
    ? crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
    : crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid, alg: type === 'ec' ? 'ES256' : 'RS256', use: 'sig' };
}
const keys = [newKey('k1', 'rsa'), newKey('k2', 'rsa'), newKey('k3', 'ec')];
const publicJwk = ({ kty, n, e, crv, x, y, kid, alg, use }) => JSON.parse(JSON.stringify({ kty, n, e, crv, x, y, kid, alg, use }));
const retired = new Set(); // kids left out of the published JWKS (still usable to sign, on purpose)
let signKid = 'k1';
const signingKey = () => keys.find((k) => k.kid === signKid);
const published = () => ({ keys: keys.filter((k) => !retired.has(k.kid)).map(publicJwk) });

// The issuer must be exactly the URL clients and the gateway see (no trailing slash). With port 0
// it is only known after listen(), so listen first, then build the provider.
const server = http.createServer();
await new Promise((resolve) => server.listen(PORT, HOST, resolve));
const ISSUER = `http://${HOST}:${server.address().port}`;

const configuration = {
  jwks: { keys },
  clients: [
    { client_id: 'warden-test', client_secret: 'warden-test-secret', response_types: [], redirect_uris: [],
      grant_types: ['client_credentials', 'urn:ietf:params:oauth:grant-type:token-exchange'] },
    { client_id: 'warden-gateway', client_secret: 'warden-gateway-secret', response_types: [], redirect_uris: [],
      grant_types: ['client_credentials', 'urn:ietf:params:oauth:grant-type:token-exchange'] },
  ],
  pkce: { required: () => true },
  // Resource scopes must be listed here too: MCP clients send the challenged scope in their
  // registration, and oidc-provider refuses client metadata naming scopes it does not know.
  scopes: ['openid', 'offline_access', ...new Set(Object.values(resources).flatMap((r) => r.scopes))],
  clockTolerance: 5,
  // A registered `scope` would become an allow-list, so a client that registered with the first
  // challenged scope (the MCP SDK does) could never step up: drop it, resources govern scopes.
  extraClientMetadata: {
    properties: ['scope'],
    validator(ctx, key, value, metadata) { if (key === 'scope') delete metadata.scope; },
  },
  // Functions, not numbers: a number here would override each resource's own TTL.
  ttl: {
    AccessToken: (ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
    ClientCredentials: (ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
    AuthorizationCode: 60, Interaction: 300, Session: 3600, Grant: 3600, RefreshToken: 3600,
  },
  features: {
    devInteractions: { enabled: false }, // replaced by the headless login below
    clientCredentials: { enabled: true },
    introspection: { enabled: true, allowedPolicy: async (ctx, client) => client.clientAuthMethod !== 'none' },
    revocation: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async (ctx, client, oneOf) => oneOf,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (ctx, indicator) => resourceServerInfo(indicator),
    },
  },
  async findAccount(ctx, sub) {
    return { accountId: sub, async claims() { return { sub }; } };
  },
  async extraTokenClaims(ctx, token) {
    return token.extra?.act ? token.extra : undefined; // RFC 8693 "act" on exchanged tokens
  },
  formats: {
    customizers: {
      async jwt(ctx, token, jwt) { // exchanged tokens: sub = the original subject
        if (jwt.payload.act && jwt.payload.exsub) jwt.payload.sub = jwt.payload.exsub;
        delete jwt.payload.exsub;
      },
    },
  },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
};

function resourceServerInfo(indicator) {
  const r = resourceFor(indicator);
  if (!r) throw new errors.InvalidTarget();
  const key = signingKey();
  return {
    scope: r.scopes.join(' '),
    audience: indicator, // RFC 8707: aud = the resource's canonical URI
    accessTokenTTL: r.ttl ?? 300,
    accessTokenFormat: r.format ?? 'jwt',
    ...(r.format === 'opaque' ? {} : { jwt: { sign: { alg: key.alg, kid: key.kid } } }),
  };
}

const provider = new Provider(ISSUER, configuration);
provider.proxy = false;

// RFC 8693 token exchange: not built into oidc-provider, registered as an extension grant. JWT
// access tokens are not stored by oidc-provider, so a JWT subject token is verified against our
// own published keys; an opaque one is looked up.
const TE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const AT_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
provider.registerGrantType(TE, async (ctx) => {
  const { params, client } = ctx.oidc;
  if (params.subject_token_type !== AT_TYPE) throw new errors.InvalidRequest('unsupported subject_token_type');
  let sub;
  const value = params.subject_token;
  if (value.split('.').length === 3) {
    try {
      ({ payload: { sub } } = await jwtVerify(value, createLocalJWKSet(published()), { issuer: ISSUER, typ: 'at+jwt' }));
    } catch (e) { throw new errors.InvalidGrant(`invalid subject_token (${e.code})`); }
  } else {
    const t = await provider.AccessToken.find(value) ?? await provider.ClientCredentials.find(value);
    if (!t || t.isExpired) throw new errors.InvalidGrant('invalid subject_token');
    sub = t.accountId ?? t.clientId;
  }
  const rs = resourceServerInfo(params.resource);
  const allowed = new Set(rs.scope.split(' '));
  const scope = (params.scope ? params.scope.split(' ') : [...allowed]).filter((s) => allowed.has(s)).join(' ');
  const token = new provider.ClientCredentials({ client, scope: scope || undefined });
  token.resourceServer = new ResourceServer(params.resource, rs);
  token.extra = { act: { sub: client.clientId }, exsub: sub };
  ctx.body = { access_token: await token.save(), issued_token_type: AT_TYPE, token_type: 'Bearer',
    expires_in: token.expiration, scope: token.scope };
}, ['subject_token', 'subject_token_type', 'actor_token', 'actor_token_type', 'resource', 'audience', 'scope',
  'requested_token_type'], ['resource', 'audience']);

// Headless browser stand-in: log in as login_hint (default alice) and consent to what was asked.
async function interaction(ctx) {
  const details = await provider.interactionDetails(ctx.req, ctx.res);
  const { prompt, params, session } = details;
  let result;
  if (prompt.name === 'login') {
    result = { login: { accountId: params.login_hint || 'alice' } };
  } else {
    const grant = details.grantId ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
    for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    result = { consent: { grantId: await grant.save() } };
  }
  return provider.interactionFinished(ctx.req, ctx.res, result, { mergeWithLastSubmission: true });
}

async function body(ctx) {
  const chunks = [];
  for await (const c of ctx.req) chunks.push(c);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
}

// Test-only admin routes. They exist so tests get tokens a real AS would never hand out (expired,
// for another audience, without exp) signed by this AS's real key, without sleeping until a token
// expires, and can rotate keys without a restart:
//   POST /__admin/sign-kid?kid=k2   sign from now on with k2 (a retired kid too: "unknown kid" tokens)
//   POST /__admin/retire?kid=k1     leave k1 out of the published JWKS
//   POST /__admin/restore?kid=k1    publish k1 again
//   POST /__admin/mint              body {"claims": {...}, "header": {...}}: an at+jwt signed with the
//        current key; claims default to iss, sub=alice, aud=the first configured resource, scope, iat,
//        exp=iat+300, client_id, jti; an override replaces a default, null removes it.
//   POST /__admin/inspect           body {"token": "...", "audience": "..."}: its header and claims, and
//        whether jose verifies it against the JWKS as published now (iss, typ at+jwt, aud if given,
//        exp): {"header":..., "claims":..., "verified": true|false, "error": "ERR_..."|null}. So Java
//        tests look inside tokens through a JOSE library instead of parsing JWTs by hand.
async function admin(ctx) {
  const kid = ctx.query.kid;
  const known = keys.some((k) => k.kid === kid);
  const reply = (status, value) => { ctx.status = status; ctx.body = value; };
  switch (ctx.path) {
    case '/__admin/sign-kid':
      if (!known) return reply(400, { error: 'unknown kid' });
      signKid = kid; return reply(200, { signKid });
    case '/__admin/retire':
      if (!known) return reply(400, { error: 'unknown kid' });
      retired.add(kid); return reply(200, { kids: published().keys.map((k) => k.kid) });
    case '/__admin/restore':
      if (!known) return reply(400, { error: 'unknown kid' });
      retired.delete(kid); return reply(200, { kids: published().keys.map((k) => k.kid) });
    case '/__admin/mint': {
      const { claims = {}, header = {} } = await body(ctx);
      const key = signingKey();
      const iat = Math.floor(Date.now() / 1000);
      const firstResource = Object.keys(resources).find((k) => k !== '*') ?? null;
      const defaults = { iss: ISSUER, sub: 'alice', aud: firstResource, scope: resourceFor(firstResource)?.scopes.join(' ') ?? 'mcp:tools',
        iat, exp: iat + 300, client_id: 'warden-test', jti: crypto.randomUUID() };
      const payload = Object.fromEntries(Object.entries({ ...defaults, ...claims }).filter(([, v]) => v !== null));
      const token = await new SignJWT(payload)
        .setProtectedHeader({ alg: key.alg, typ: 'at+jwt', kid: key.kid, ...header })
        .sign(await importJWK(key, key.alg));
      return reply(200, { access_token: token, kid: key.kid, claims: payload });
    }
    case '/__admin/inspect': {
      const { token, audience } = await body(ctx);
      let header; let claims;
      try { header = decodeProtectedHeader(token); claims = decodeJwt(token); } catch (e) {
        return reply(200, { header: null, claims: null, verified: false, error: e.code ?? 'not a JWT' });
      }
      try {
        await jwtVerify(token, createLocalJWKSet(published()), { issuer: ISSUER, typ: 'at+jwt', ...(audience ? { audience } : {}) });
        return reply(200, { header, claims, verified: true, error: null });
      } catch (e) { return reply(200, { header, claims, verified: false, error: e.code ?? e.message }); }
    }
    default:
      return reply(404, { error: 'no such admin route' });
  }
}

provider.use(async (ctx, next) => {
  if (/^\/interaction\/[\w-]+$/.test(ctx.path) && ctx.method === 'GET') return interaction(ctx);
  // The JWKS is served here, not by oidc-provider, so a retired kid can leave it at runtime.
  if (ctx.path === '/jwks' && ctx.method === 'GET') { ctx.type = 'application/jwk-set+json'; ctx.body = published(); return undefined; }
  if (ctx.path.startsWith('/__admin/')) {
    if (ctx.method !== 'POST') { ctx.status = 405; return undefined; }
    const from = ctx.req.socket.remoteAddress;
    if (from !== '127.0.0.1' && from !== '::ffff:127.0.0.1') { ctx.status = 403; return undefined; }
    return admin(ctx);
  }
  return next();
});

// The real reason for a refused grant goes to stderr (clients only see the RFC error code).
for (const ev of ['grant.error', 'introspection.error', 'server_error', 'registration_create.error', 'authorization.error']) {
  provider.on(ev, (ctx, err) => console.error(ev, err.error ?? '', err.error_detail ?? err.error_description ?? err.message));
}
server.on('request', provider.callback());
process.on('SIGTERM', () => process.exit(0)); // nothing to flush: every token lives in memory
if (process.env.AS_EXIT_WITH_STDIN === '1') { // the Java fixture's pipe: no orphan when its JVM dies
  process.stdin.on('end', () => process.exit(0)).resume();
}
console.log(JSON.stringify({ issuer: ISSUER, signKid, kids: keys.map((k) => k.kid) }));
