// A real MCP client that authorizes itself: the TypeScript SDK's Client and Streamable HTTP
// transport with its own OAuth flow (401 -> protected-resource metadata -> authorization-server
// metadata -> dynamic registration -> authorization code + PKCE with the resource -> token), and,
// on 403 insufficient_scope, its own step-up. Only the browser is replaced: the authorization URL
// is fetched headlessly with login_hint (auth-server.mjs logs in whoever it names and consents).
//
// Usage: node oauth-client.mjs URL [basic|step-up] [TOOL] [ARGS_JSON] [STEP_UP_TOOL] [STEP_UP_ARGS_JSON]
//   basic    list tools, call TOOL (default echo, args {"message":"hello"})
//   step-up  basic, then call STEP_UP_TOOL (default admin__echo), which needs a scope the first token
//            lacks: the server answers 403 insufficient_scope, the SDK re-authorizes asking for it,
//            the call is retried on the same session and succeeds
// Env: LOGIN_HINT (default alice)
// Stdout: one JSON object per line, {"step": ...}; no token value is ever printed. Exit 0 when the
// scenario completed, 1 after {"step":"error",...}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const [url, scenario = 'basic', tool = 'echo', args = '{"message":"hello"}',
  stepUpTool = 'admin__echo', stepUpArgs = '{"message":"hello"}'] = process.argv.slice(2);
if (!url || !['basic', 'step-up'].includes(scenario)) {
  console.error('usage: node oauth-client.mjs URL [basic|step-up] [TOOL] [ARGS_JSON] [STEP_UP_TOOL] [STEP_UP_ARGS_JSON]');
  process.exit(2);
}
const REDIRECT = 'http://127.0.0.1:33418/callback'; // never listened on: the code is read from the Location
const emit = (step, fields) => console.log(JSON.stringify({ step, ...fields }));
const challengeParam = (header, name) => new RegExp(`${name}="([^"]*)"`).exec(header ?? '')?.[1] ?? null;

// Every HTTP exchange the SDK makes goes through here, so the steps it takes on its own
// (challenges, metadata discovery) are reported as the server and the AS answered them.
async function observingFetch(input, init) {
  const response = await fetch(input, init);
  const target = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const header = response.headers.get('www-authenticate');
  if (response.status === 401 || response.status === 403) {
    emit('challenge', { status: response.status, error: challengeParam(header, 'error'),
      scope: challengeParam(header, 'scope'), resourceMetadata: challengeParam(header, 'resource_metadata'),
      wwwAuthenticate: header });
  } else if (response.ok && target.pathname.startsWith('/.well-known/oauth-protected-resource')) {
    const m = await response.clone().json();
    emit('resourceMetadata', { url: target.href, resource: m.resource, authorizationServers: m.authorization_servers,
      scopesSupported: m.scopes_supported ?? null });
  } else if (response.ok && (target.pathname.startsWith('/.well-known/oauth-authorization-server')
      || target.pathname.startsWith('/.well-known/openid-configuration'))) {
    const m = await response.clone().json();
    emit('authorizationServerMetadata', { url: target.href, issuer: m.issuer, registrationEndpoint: m.registration_endpoint ?? null });
  }
  return response;
}

// The SDK's OAuthClientProvider, in memory.
const store = {};
let pendingCode;
const provider = {
  get redirectUrl() { return REDIRECT; },
  get clientMetadata() {
    return { client_name: 'warden-e2e-oauth-client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: 'none' };
  },
  clientInformation: () => store.client,
  saveClientInformation(client) { store.client = client; emit('registered', { clientId: client.client_id }); },
  tokens: () => store.tokens,
  saveTokens(tokens) {
    store.tokens = tokens;
    emit('tokens', { tokenType: tokens.token_type, scope: tokens.scope ?? null, expiresIn: tokens.expires_in ?? null });
  },
  saveCodeVerifier(verifier) { store.verifier = verifier; },
  codeVerifier: () => store.verifier,
  async redirectToAuthorization(authorizationUrl) {
    const p = authorizationUrl.searchParams;
    const loginHint = process.env.LOGIN_HINT ?? 'alice';
    emit('authorize', { scope: p.get('scope'), resource: p.get('resource'), codeChallengeMethod: p.get('code_challenge_method'),
      loginHint });
    p.set('login_hint', loginHint);
    // A browser stand-in: follow the AS's redirects (keeping its cookies) to the redirect URI.
    const jar = new Map();
    let next = authorizationUrl.href;
    for (let hop = 0; hop < 10 && !next.startsWith(REDIRECT); hop++) {
      const response = await fetch(next, { redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const c of response.headers.getSetCookie()) {
        const [pair] = c.split(';');
        jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      if (response.status < 300 || response.status >= 400) {
        throw new Error(`authorization stopped at HTTP ${response.status}: ${await response.text()}`);
      }
      next = new URL(response.headers.get('location'), next).href;
    }
    const redirected = new URL(next);
    if (redirected.searchParams.has('error')) {
      throw new Error(`authorization refused: ${redirected.searchParams.get('error')} ${redirected.searchParams.get('error_description')}`);
    }
    pendingCode = redirected.searchParams.get('code');
  },
};

const transportFor = () => new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, fetch: observingFetch });

// The SDK answers a challenge by redirecting (our headless fetch above) and throwing
// UnauthorizedError; the application then hands it the code and tries again.
async function authorizedRetry(attempt, transport) {
  try {
    return await attempt();
  } catch (e) {
    if (!(e instanceof UnauthorizedError) || !pendingCode) throw e;
    const code = pendingCode;
    pendingCode = undefined;
    await transport().finishAuth(code);
    return attempt();
  }
}

let transport = transportFor();
let client;
async function connect() {
  transport = transportFor();
  client = new Client({ name: 'warden-e2e-oauth-client', version: '1.0.0' });
  await client.connect(transport); // a failed connect closes this client: the retry builds a new one
}

async function call(name, argsJson) {
  const result = await authorizedRetry(() => client.callTool({ name, arguments: JSON.parse(argsJson) }), () => transport);
  emit('call', { tool: name, isError: result.isError ?? false, content: result.content });
}

try {
  await authorizedRetry(connect, () => transport);
  emit('connected', { server: client.getServerVersion() ?? null, sessionId: transport.sessionId ?? null });
  const { tools } = await client.listTools();
  emit('tools', { names: tools.map((t) => t.name) });
  await call(tool, args);
  if (scenario === 'step-up') {
    await call(stepUpTool, stepUpArgs);
  }
  emit('done', { scenario, sessionId: transport.sessionId ?? null });
  await client.close();
  process.exit(0);
} catch (e) {
  emit('error', { type: e?.constructor?.name ?? null, code: e?.code ?? null, message: String(e?.message ?? e) });
  process.exit(1);
}
