// A reference OAuth-protected MCP server built only from the TypeScript SDK's own pieces
// (mcpAuthMetadataRouter for RFC 9728 metadata, requireBearerAuth for the 401/403 challenges) with
// jose verifying auth-server.mjs's at+jwt tokens. It holds oauth-client.mjs and auth-server.mjs to
// account on their own, so when a test through Warden's gateway fails the fault is the gateway's;
// and it shows what the SDK itself answers, to compare the gateway against.
//
// Usage: node auth-stand-in-server.mjs ISSUER   (stdout: {"url":"http://127.0.0.1:PORT/mcp"})
// Every request needs mcp:tools; tools named admin__* need mcp:admin too (403 insufficient_scope).
// Tools: echo, admin__echo (both answer "<subject>: <message>").
import * as http from 'node:http';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { mcpAuthMetadataRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

const issuer = process.argv[2];
if (!issuer) {
  console.error('usage: node auth-stand-in-server.mjs ISSUER');
  process.exit(2);
}
const oauthMetadata = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json();
const jwks = createRemoteJWKSet(new URL(oauthMetadata.jwks_uri));

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const resource = new URL(`http://127.0.0.1:${server.address().port}/mcp`);

const verifier = {
  async verifyAccessToken(token) {
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: resource.href, typ: 'at+jwt', clockTolerance: 5 });
      return { token, clientId: payload.client_id, scopes: String(payload.scope ?? '').split(' ').filter(Boolean),
        expiresAt: payload.exp, resource: new URL(payload.aud), extra: { sub: payload.sub } };
    } catch (e) {
      throw new InvalidTokenError(`token refused: ${e.code ?? e.message}`);
    }
  },
};
const bearer = (scopes) => requireBearerAuth({ verifier, requiredScopes: scopes,
  resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource), expectedResource: resource });
const anyCall = bearer(['mcp:tools']);
const adminCall = bearer(['mcp:tools', 'mcp:admin']);

function mcpServer() {
  const mcp = new McpServer({ name: 'auth-stand-in', version: '1.0.0' });
  const echo = async ({ message }, extra) => ({ content: [{ type: 'text', text: `${extra.authInfo?.extra?.sub}: ${message}` }] });
  mcp.registerTool('echo', { inputSchema: { message: z.string() } }, echo);
  mcp.registerTool('admin__echo', { inputSchema: { message: z.string() } }, echo);
  return mcp;
}

const sessions = new Map();
const app = express();
app.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: resource, scopesSupported: ['mcp:tools', 'mcp:admin'] }));
app.use('/mcp', express.json(), anyCall, (req, res, next) => {
  const needsAdmin = [req.body].flat().some((m) => m?.method === 'tools/call' && String(m.params?.name).startsWith('admin__'));
  return needsAdmin ? adminCall(req, res, next) : next();
});
app.all('/mcp', async (req, res) => {
  let transport = sessions.get(req.headers['mcp-session-id']);
  if (!transport) {
    transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => sessions.set(id, transport) });
    await mcpServer().connect(transport);
  }
  await transport.handleRequest(req, res, req.body);
});
server.on('request', app);
process.on('SIGTERM', () => process.exit(0));
console.log(JSON.stringify({ url: resource.href }));
