import { createHash, randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose';

/**
 * A local OpenID provider speaking Google's and Apple's documented endpoints, for the sign-in
 * tests (the machine has no internet):
 * - Google: https://developers.google.com/identity/openid-connect/reference: a discovery document
 *   at `<issuer>/.well-known/openid-configuration` offering PKCE S256, a JWKS, and a token endpoint
 *   taking client_secret_post and answering an RS256 ID token with sub, email and email_verified.
 * - Apple: https://developer.apple.com/documentation/signinwithapplerestapi/generate-and-validate-tokens:
 *   the token endpoint takes `client_secret`, a JWT signed ES256 by the team's key (`kid`), with
 *   iss the team id, sub the Services ID and aud Apple's issuer, checked here; the discovery
 *   document, like Apple's, lists form_post and no code_challenge method.
 *
 * Each issuer is a path of one server: `<url>/google` and `<url>/apple`.
 */
export type Person = { sub: string; email?: string; email_verified?: boolean | 'true' | 'false'; given_name?: string; family_name?: string };
export type Grant = { person: Person; clientId: string; redirectUri: string; nonce: string; codeChallenge?: string };
/** How the token endpoint misbehaves, for the failure tests. */
export type Trouble = 'none' | 'refuse' | 'server-error' | 'slow' | 'garbled' | 'wrong-audience' | 'wrong-issuer' | 'wrong-nonce' | 'foreign-key';

export type AppleClient = { clientId: string; teamId: string; keyId: string; privateKeyPem: string; publicKey: CryptoKey };

export type OidcStandIn = {
  url: string;
  issuer: (provider: 'google' | 'apple') => string;
  /** The code the provider would hand back after the person signed in for this authorization request. */
  grant: (provider: 'google' | 'apple', authorization: URL, person: Person) => string;
  trouble: { now: Trouble };
  /** Every token request, as received (the secrets among them). */
  tokenRequests: Record<string, string>[];
  /** Apple client secrets the endpoint accepted, decoded. */
  appleSecrets: { header: Record<string, unknown>; payload: Record<string, unknown> }[];
  close: () => Promise<void>;
};

const b64url = (bytes: Buffer) => bytes.toString('base64url');

export async function startOidcStandIn(options: { googleClient: { id: string; secret: string }; appleClient: AppleClient }): Promise<OidcStandIn> {
  const server: FastifyInstance = Fastify();
  await server.register(formbody);
  const signing = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(signing.publicKey)), kid: 'stand-in-1', alg: 'RS256', use: 'sig' };
  const grants = new Map<string, Grant & { provider: 'google' | 'apple' }>();
  const trouble = { now: 'none' as Trouble };
  const tokenRequests: Record<string, string>[] = [];
  const appleSecrets: OidcStandIn['appleSecrets'] = [];
  let url = '';
  const issuer = (provider: 'google' | 'apple') => `${url}/${provider}`;

  for (const provider of ['google', 'apple'] as const) {
    server.get(`/${provider}/.well-known/openid-configuration`, () => ({
      issuer: issuer(provider),
      authorization_endpoint: `${issuer(provider)}/auth`,
      token_endpoint: `${issuer(provider)}/token`,
      jwks_uri: `${issuer(provider)}/keys`,
      response_types_supported: ['code'],
      response_modes_supported: provider === 'apple' ? ['query', 'fragment', 'form_post'] : ['query', 'fragment'],
      subject_types_supported: ['public', 'pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: provider === 'apple' ? ['openid', 'email', 'name'] : ['openid', 'email', 'profile'],
      token_endpoint_auth_methods_supported: provider === 'apple' ? ['client_secret_post'] : ['client_secret_post', 'client_secret_basic'],
      claims_supported: ['aud', 'email', 'email_verified', 'exp', 'iat', 'iss', 'sub', 'nonce'],
      ...(provider === 'google' ? { code_challenge_methods_supported: ['plain', 'S256'] } : {}),
    }));
    server.get(`/${provider}/keys`, () => ({ keys: [jwk] }));
    server.post(`/${provider}/token`, async (request, reply) => {
      const body = request.body as Record<string, string>;
      tokenRequests.push({ provider, ...body });
      const refuse = (error: string) => reply.status(400).send({ error });
      if (trouble.now === 'server-error') return reply.status(503).send('<html>Service Unavailable</html>');
      if (trouble.now === 'slow') await new Promise((resolve) => setTimeout(resolve, 3000));
      if (trouble.now === 'garbled') return reply.header('content-type', 'application/json').send('{"access_token": ');
      if (trouble.now === 'refuse') return refuse('invalid_grant');
      if (body.grant_type !== 'authorization_code') return refuse('unsupported_grant_type');
      // The client's authentication: Google's secret, or Apple's signed client secret.
      if (provider === 'google') {
        if (body.client_id !== options.googleClient.id || body.client_secret !== options.googleClient.secret) return reply.status(401).send({ error: 'invalid_client' });
      } else {
        const apple = options.appleClient;
        try {
          const { payload, protectedHeader } = await jwtVerify(body.client_secret ?? '', apple.publicKey, { algorithms: ['ES256'], issuer: apple.teamId, subject: apple.clientId, audience: issuer('apple') });
          if (protectedHeader.kid !== apple.keyId || body.client_id !== apple.clientId) throw new Error('wrong kid or client');
          if ((payload.exp ?? 0) - (payload.iat ?? 0) > 15_777_000) throw new Error('too long-lived');
          appleSecrets.push({ header: { ...protectedHeader }, payload: { ...payload } });
        } catch {
          return reply.status(400).send({ error: 'invalid_client' });
        }
      }
      const grant = grants.get(body.code ?? '');
      grants.delete(body.code ?? '');
      if (!grant || grant.provider !== provider || grant.redirectUri !== body.redirect_uri || grant.clientId !== body.client_id) return refuse('invalid_grant');
      if (grant.codeChallenge !== undefined) {
        const sent = body.code_verifier ?? '';
        if (b64url(createHash('sha256').update(sent).digest()) !== grant.codeChallenge) return refuse('invalid_grant');
      }
      const now = Math.floor(Date.now() / 1000);
      const idToken = await new SignJWT({
        ...grant.person,
        nonce: trouble.now === 'wrong-nonce' ? 'another-nonce' : grant.nonce,
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'stand-in-1' })
        .setIssuer(trouble.now === 'wrong-issuer' ? 'https://evil.example' : issuer(provider))
        .setAudience(trouble.now === 'wrong-audience' ? 'someone-else' : grant.clientId)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(trouble.now === 'foreign-key' ? foreign.privateKey : signing.privateKey);
      return { access_token: b64url(randomBytes(24)), token_type: 'Bearer', expires_in: 3600, id_token: idToken };
    });
  }
  url = await server.listen({ port: 0, host: '127.0.0.1' });

  return {
    url,
    issuer,
    grant(provider, authorization, person) {
      const code = b64url(randomBytes(16));
      const params = authorization.searchParams;
      grants.set(code, {
        provider,
        person,
        clientId: params.get('client_id') ?? '',
        redirectUri: params.get('redirect_uri') ?? '',
        nonce: params.get('nonce') ?? '',
        codeChallenge: params.get('code_challenge') ?? undefined,
      });
      return code;
    },
    trouble,
    tokenRequests,
    appleSecrets,
    close: () => server.close(),
  };
}
