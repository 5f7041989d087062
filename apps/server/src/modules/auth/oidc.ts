/**
 * Security-critical: sign-in with Google and with Apple (issue 20, point 1), OpenID Connect's
 * authorization code flow through `openid-client`.
 *
 * - The start stores the sign-in under way on the server (social_sign_ins): the state (hashed),
 *   the PKCE verifier and the nonce never reach the browser, which holds only a random token
 *   (an httpOnly cookie) tying the return to the browser that started it (no login CSRF).
 * - The return is single-use: its row is deleted as it is read. A missing, forged, expired or
 *   another browser's state, a refusal, an unreachable or garbled provider, or an ID token with the
 *   wrong signature, issuer, audience or nonce ends at login_error, with nothing stored.
 * - Google: https://developers.google.com/identity/openid-connect/reference (discovery, the ID
 *   token's sub, email and email_verified). Apple:
 *   https://developer.apple.com/documentation/signinwithapplerestapi/generate-and-validate-tokens
 *   (the client secret is an ES256 JWT; the answer is a form post when name or email is asked).
 * - PKCE where the provider's discovery document offers S256 (Google's does); Apple's lists no
 *   code_challenge method, so its flow rests on the state and the ID token's nonce.
 */
import { createHash } from 'node:crypto';
import { isStandardEmail, pathAfterLogin, safeReturnPath, type UserType } from '@rideway/domain';
import { and, eq, isNull, lte } from 'drizzle-orm';
import type * as OpenId from 'openid-client';
import { z } from 'zod';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { socialSignIns, users } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import { AppError } from '../../http/app-error';
import { findUserByEmail, insertAccount, type UserRow } from '../accounts/accounts';
import { newToken } from '../accounts/sessions';
import { socialAvailable, type SocialProvider } from './methods';
import { admit } from './admit';
import { needsSecondStep, sessionOrChallenge, type SecondStep } from './two-factor';

/** A sign-in under way expires after this long: the person has that long at the provider's page. */
export const SIGN_IN_LIFETIME_MS = 10 * 60 * 1000;
/** A provider's discovery document is read again after this long. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Apple's client secret lives this long (Apple allows up to six months; a fresh one per exchange is safer). */
const APPLE_SECRET_LIFETIME_S = 5 * 60;

/**
 * openid-client (with oauth4webapi and jose: about 1 MB of heap, and their source maps) loads with
 * the first social sign-in, not at start: a server without Google or Apple configured never needs
 * it (issue 21 point 4).
 */
const openIdClient = (): Promise<typeof OpenId> => import('openid-client');

export const callbackPath = (provider: SocialProvider): string => `/api/auth/${provider}/callback`;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

type Client = { issuer: string; clientId: string };

function clientOf(config: Config, provider: SocialProvider): Client {
  return provider === 'google'
    ? { issuer: config.GOOGLE_ISSUER, clientId: config.GOOGLE_CLIENT_ID ?? '' }
    : { issuer: config.APPLE_ISSUER, clientId: config.APPLE_CLIENT_ID ?? '' };
}

/**
 * Apple's client secret: a JWT signed with the team's Sign in with Apple key (ES256), issued by
 * the team for the Services ID, for Apple (its issuer), short-lived.
 */
export async function appleClientSecret(config: Config, nowMs: number): Promise<string> {
  const { importPKCS8, SignJWT } = await import('jose');
  const key = await importPKCS8(config.APPLE_PRIVATE_KEY ?? '', 'ES256');
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: config.APPLE_KEY_ID ?? '' })
    .setIssuer(config.APPLE_TEAM_ID ?? '')
    .setSubject(config.APPLE_CLIENT_ID ?? '')
    .setAudience(config.APPLE_ISSUER.replace(/\/$/, ''))
    .setIssuedAt(now)
    .setExpirationTime(now + APPLE_SECRET_LIFETIME_S)
    .sign(key);
}

/** Plain http only for a local issuer in tests: production issuers are https. */
const insecure = (issuer: string): boolean => issuer.startsWith('http://');

const discovered = new Map<string, { metadata: OpenId.ServerMetadata; at: number }>();

/** The provider's openid-client configuration, from its (cached) discovery document; any failure is login_error. */
async function configurationOf(ctx: AppContext, client: typeof OpenId, provider: SocialProvider): Promise<OpenId.Configuration> {
  // openid-client marks it deprecated only to make it stand out: it is applied to http issuers alone (tests' local provider).
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const allowHttp: (configuration: OpenId.Configuration) => void = client.allowInsecureRequests;
  const { issuer, clientId } = clientOf(ctx.config, provider);
  const timeout = ctx.config.SOCIAL_SIGN_IN_TIMEOUT_MS / 1000;
  const clientAuth = provider === 'google'
    ? client.ClientSecretPost(ctx.config.GOOGLE_CLIENT_SECRET)
    // Apple checks the secret's times against its own clock: the wall clock, not the app's.
    : client.ClientSecretPost(await appleClientSecret(ctx.config, Date.now()));
  const cached = discovered.get(issuer);
  let configuration: OpenId.Configuration;
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) {
    configuration = new client.Configuration(cached.metadata, clientId, undefined, clientAuth);
    if (insecure(issuer)) allowHttp(configuration);
  } else {
    configuration = await client.discovery(new URL(issuer), clientId, undefined, clientAuth, { execute: insecure(issuer) ? [allowHttp] : [], timeout });
    discovered.set(issuer, { metadata: configuration.serverMetadata(), at: Date.now() });
  }
  configuration.timeout = timeout;
  // The ID token's signature is checked against the provider's keys too, not only the TLS of the token answer.
  client.enableNonRepudiationChecks(configuration);
  return configuration;
}

/** A provider trouble (unreachable, slow, garbled, refusing) is a failed sign-in, never a server error. */
async function askingProvider<T>(ctx: AppContext, provider: SocialProvider, step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) throw error;
    ctx.log.warn({ provider, step, reason: error instanceof Error ? error.message : String(error) }, 'social sign-in failed at the provider');
    throw new AppError('login_error');
  }
}

/**
 * The start: where the browser goes (the provider's authorization page) and the token it keeps
 * in a cookie. Refused (forbidden) when the provider is not on offer.
 */
export async function startSocialSignIn(ctx: AppContext, provider: SocialProvider, origin: string, next: string | undefined): Promise<{ url: string; browserToken: string }> {
  if (!(await socialAvailable(ctx, provider))) throw new AppError('forbidden');
  const client = await openIdClient();
  const configuration = await askingProvider(ctx, provider, 'discovery', () => configurationOf(ctx, client, provider));
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const browserToken = newToken();
  const pkce = configuration.serverMetadata().supportsPKCE();
  const parameters: Record<string, string> = {
    redirect_uri: `${origin}${callbackPath(provider)}`,
    response_type: 'code',
    scope: provider === 'google' ? 'openid email profile' : 'openid name email',
    state,
    nonce,
  };
  if (pkce) Object.assign(parameters, { code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256' });
  // Apple sends the name and email only as a form post to the callback.
  if (provider === 'apple') parameters.response_mode = 'form_post';
  const now = ctx.now();
  // Sign-ins never finished go as new ones start.
  await ctx.db.delete(socialSignIns).where(lte(socialSignIns.expiresAt, now));
  await ctx.db.insert(socialSignIns).values({
    stateHash: sha256(state),
    provider,
    browserHash: sha256(browserToken),
    codeVerifier: pkce ? codeVerifier : '',
    nonce,
    next: safeReturnPath(next, origin),
    expiresAt: now + SIGN_IN_LIFETIME_MS,
  });
  return { url: client.buildAuthorizationUrl(configuration, parameters).toString(), browserToken };
}

/** What the provider's ID token says of the person (Apple writes email_verified as "true" or true). */
const idClaims = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().max(254).optional(),
  email_verified: z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]).optional(),
  given_name: z.string().max(100).optional(),
  family_name: z.string().max(100).optional(),
});
type Identity = { sub: string; email: string | null; emailVerified: boolean; firstName?: string; lastName?: string };

/** Apple's `user` field: the name, sent on the first sign-in only (not signed: used for the name alone). */
const appleUser = z.object({ name: z.object({ firstName: z.string().max(100).optional(), lastName: z.string().max(100).optional() }).optional() });

function nameFromApple(user: string | undefined): { firstName?: string; lastName?: string } {
  if (!user) return {};
  try {
    const parsed = appleUser.safeParse(JSON.parse(user));
    return parsed.success ? { firstName: parsed.data.name?.firstName, lastName: parsed.data.name?.lastName } : {};
  } catch {
    return {};
  }
}

/**
 * Section 5 social sign-up, and linking. A known provider id signs in its account. An email of an
 * existing account links to it only when the provider says the email is verified AND the account's
 * email is verified here; otherwise the sign-in is refused (social_email_unverified), since
 * whoever controls one side of an unverified email could take over the other. A new person
 * becomes an approved rider with a zero wallet; missing names are a blank space.
 */
async function accountOf(ctx: AppContext, provider: SocialProvider, identity: Identity): Promise<UserRow> {
  const column = provider === 'google' ? users.googleId : users.appleId;
  const linkedAccount = async () => (await ctx.db.select().from(users).where(eq(column, identity.sub)).limit(1))[0];
  const linked = await linkedAccount();
  if (linked) return linked;
  try {
    return await linkOrSignUp(ctx, provider, identity);
  } catch (error) {
    // Two first sign-ins of one person at once (two tabs): the second write meets a unique index
    // the first filled (the provider id, or the email, which sign-up answers as user_exists) once
    // the first committed, and signs in the account the first made or linked.
    if (!isUniqueViolation(error) && !(error instanceof AppError && error.key === 'user_exists')) throw error;
    const winner = await linkedAccount();
    if (winner) return winner;
    throw new AppError('login_error');
  }
}

/** A person not linked yet: linked to the account with the same verified email, or signed up. */
async function linkOrSignUp(ctx: AppContext, provider: SocialProvider, identity: Identity): Promise<UserRow> {
  const column = provider === 'google' ? users.googleId : users.appleId;
  const sameEmail = identity.email ? await findUserByEmail(ctx.db, identity.email) : undefined;
  if (sameEmail) {
    if (!identity.emailVerified || !sameEmail.emailVerified) throw new AppError('social_email_unverified');
    // An account already linked to another person at this provider is not taken over; linked to
    // this one (a sign-in of the same person that just finished), it is this person's.
    const linkedTo = provider === 'google' ? sameEmail.googleId : sameEmail.appleId;
    if (linkedTo === identity.sub) return sameEmail;
    if (linkedTo !== null) throw new AppError('social_email_unverified');
    const updated = await ctx.db.update(users).set(provider === 'google' ? { googleId: identity.sub } : { appleId: identity.sub })
      .where(and(eq(users.id, sameEmail.id), isNull(column))).returning();
    if (!updated[0]) throw new AppError('login_error');
    return updated[0];
  }
  return ctx.db.transaction(async (tx) => {
    const user = await insertAccount(
      tx,
      {
        firstName: identity.firstName?.trim() || ' ',
        lastName: identity.lastName?.trim() || ' ',
        // An email the provider has not verified is not claimed for this account.
        email: identity.emailVerified ? identity.email : null,
        mobile: null,
        usertype: 'rider',
        passwordHash: null,
        loginType: provider,
        approved: true,
        emailVerified: identity.emailVerified && identity.email !== null,
        createdByAdmin: false,
        referralSource: 'social',
      },
      ctx.now(),
    );
    const [row] = await tx.update(users).set(provider === 'google' ? { googleId: identity.sub } : { appleId: identity.sub }).where(eq(users.id, user.id)).returning();
    return row ?? user;
  });
}

export type SocialCallback = { code?: string; state?: string; iss?: string; error?: string; user?: string };

/**
 * The return from the provider: checks the sign-in under way, exchanges the code (with the PKCE
 * verifier, checking the ID token's signature, issuer, audience, expiry and nonce), then signs in
 * the account: a session and where to go.
 */
export async function finishSocialSignIn(
  ctx: AppContext,
  provider: SocialProvider,
  origin: string,
  answer: SocialCallback,
  browserToken: string | undefined,
): Promise<{ token: string; user: UserRow; landing: string } | SecondStep> {
  if (!answer.state) throw new AppError('login_error');
  // Single use: the row goes as it is read, whatever follows.
  const [pending] = await ctx.db.delete(socialSignIns).where(eq(socialSignIns.stateHash, sha256(answer.state))).returning();
  if (!pending || pending.provider !== provider || pending.expiresAt <= ctx.now()) throw new AppError('login_error');
  if (!browserToken || sha256(browserToken) !== pending.browserHash) throw new AppError('login_error');
  if (!(await socialAvailable(ctx, provider))) throw new AppError('forbidden');
  if (answer.error || !answer.code) throw new AppError('login_error');
  const client = await openIdClient();
  const configuration = await askingProvider(ctx, provider, 'discovery', () => configurationOf(ctx, client, provider));
  const current = new URL(`${origin}${callbackPath(provider)}`);
  current.searchParams.set('code', answer.code);
  current.searchParams.set('state', answer.state);
  if (answer.iss) current.searchParams.set('iss', answer.iss);
  const tokens = await askingProvider(ctx, provider, 'token', () => client.authorizationCodeGrant(configuration, current, {
    expectedState: answer.state,
    expectedNonce: pending.nonce,
    pkceCodeVerifier: pending.codeVerifier === '' ? undefined : pending.codeVerifier,
    idTokenExpected: true,
  }));
  const claims = idClaims.safeParse(tokens.claims());
  if (!claims.success) throw new AppError('login_error');
  const email = claims.data.email?.trim().toLowerCase();
  const identity: Identity = {
    sub: claims.data.sub,
    email: email && isStandardEmail(email) ? email : null,
    emailVerified: claims.data.email_verified === true,
    ...(provider === 'google' ? { firstName: claims.data.given_name, lastName: claims.data.family_name } : nameFromApple(answer.user)),
  };
  const user = await accountOf(ctx, provider, identity);
  await admit(ctx, user, false);
  // Issue 20 point 5: staff with an authenticator stop here for its code; the page asked for waits in the challenge.
  const outcome = await sessionOrChallenge(ctx, user, pending.next);
  if (needsSecondStep(outcome)) return outcome;
  return { ...outcome, landing: pathAfterLogin(pending.next, user.usertype as UserType, origin) };
}
