import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * A stand-in for Google's OpenID provider, for the browser tests (the machine has no internet),
 * speaking the endpoints of https://developers.google.com/identity/openid-connect/reference:
 * the discovery document, the JWKS, the authorization page (one person to continue as), and the
 * token endpoint (client_secret_post, PKCE S256) answering an RS256 ID token.
 */
const port = Number(process.env.FAKE_OIDC_PORT ?? 3220);
const CLIENT_ID = process.env.FAKE_OIDC_CLIENT_ID ?? 'e2e-google-client';
const CLIENT_SECRET = process.env.FAKE_OIDC_CLIENT_SECRET ?? 'e2e-google-secret';
const PERSON = { sub: '1098765432100', email: 'gina.google@example.com', email_verified: true, given_name: 'Gina', family_name: 'Google' };
const issuer = `http://127.0.0.1:${port}`;

const keys = await generateKeyPair('RS256');
const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'e2e-1', alg: 'RS256', use: 'sig' };
const grants = new Map<string, { redirectUri: string; nonce: string; challenge: string }>();
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', issuer);
  const json = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (url.pathname === '/.well-known/openid-configuration') {
    json(200, {
      issuer,
      authorization_endpoint: `${issuer}/o/oauth2/v2/auth`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/oauth2/v3/certs`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'email', 'profile'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      code_challenge_methods_supported: ['plain', 'S256'],
    });
  } else if (url.pathname === '/oauth2/v3/certs') {
    json(200, { keys: [jwk] });
  } else if (url.pathname === '/o/oauth2/v2/auth') {
    const params = url.searchParams;
    if (params.get('client_id') !== CLIENT_ID || params.get('code_challenge_method') !== 'S256') {
      response.writeHead(400, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Error</title><h1>invalid_request</h1>');
      return;
    }
    const code = randomBytes(16).toString('base64url');
    grants.set(code, { redirectUri: params.get('redirect_uri') ?? '', nonce: params.get('nonce') ?? '', challenge: params.get('code_challenge') ?? '' });
    const back = new URL(params.get('redirect_uri') ?? '');
    back.search = new URLSearchParams({ code, state: params.get('state') ?? '', scope: 'openid email profile' }).toString();
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>Sign in with Google</title><h1>Sign in with Google</h1><a href="${escape(back.toString())}">Continue as ${PERSON.given_name}</a>`);
  } else if (url.pathname === '/token' && request.method === 'POST') {
    let body = '';
    request.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    request.on('end', () => {
      const form = new URLSearchParams(body);
      const grant = grants.get(form.get('code') ?? '');
      grants.delete(form.get('code') ?? '');
      const verifier = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
      if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET) {
        json(401, { error: 'invalid_client' });
        return;
      }
      if (!grant || grant.redirectUri !== form.get('redirect_uri') || grant.challenge !== verifier) {
        json(400, { error: 'invalid_grant' });
        return;
      }
      const now = Math.floor(Date.now() / 1000);
      void new SignJWT({ ...PERSON, nonce: grant.nonce })
        .setProtectedHeader({ alg: 'RS256', kid: 'e2e-1' })
        .setIssuer(issuer)
        .setAudience(CLIENT_ID)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(keys.privateKey)
        .then((idToken) => { json(200, { access_token: randomBytes(20).toString('base64url'), token_type: 'Bearer', expires_in: 3599, id_token: idToken }); });
    });
  } else if (url.pathname === '/health') {
    json(200, { ok: true });
  } else {
    json(404, { error: 'not_found' });
  }
});
server.listen(port, '127.0.0.1');
