import { isStandardEmail } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { findUserByEmail, insertAccount, type UserRow } from '../accounts/accounts';
import { facebookAvailable } from './methods';
import { admit } from './admit';
import { sessionOrChallenge, type SecondStep, type SignedIn } from './two-factor';

const CALLBACK_PATH = '/api/auth/facebook/callback';
const GRAPH_TIMEOUT_MS = 10_000;

const tokenAnswer = z.object({ access_token: z.string().min(1) });
const profileAnswer = z.object({
  id: z.string().regex(/^\d{1,30}$/),
  first_name: z.string().max(100).optional(),
  last_name: z.string().max(100).optional(),
  email: z.string().max(254).optional(),
});
export type FacebookProfile = z.infer<typeof profileAnswer>;

/** Where the browser goes to sign in: Facebook's login dialog, back to our callback with `state`. */
export async function facebookDialogUrl(ctx: AppContext, origin: string, state: string): Promise<string> {
  if (!(await facebookAvailable(ctx))) throw new AppError('forbidden');
  const url = new URL(ctx.config.FACEBOOK_DIALOG_URL);
  url.search = new URLSearchParams({ client_id: ctx.config.FACEBOOK_APP_ID ?? '', redirect_uri: `${origin}${CALLBACK_PATH}`, state, scope: 'email', response_type: 'code' }).toString();
  return url.toString();
}

async function graph<T>(ctx: AppContext, path: string, query: Record<string, string>, schema: z.ZodType<T>): Promise<T> {
  const url = new URL(`${ctx.config.FACEBOOK_GRAPH_URL}${path}`);
  url.search = new URLSearchParams(query).toString();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS) });
    const parsed = schema.safeParse(await response.json());
    if (response.ok && parsed.success) return parsed.data;
  } catch {
    // An unreachable or garbled Graph API is a failed sign-in, not a server error.
  }
  throw new AppError('login_error');
}

/**
 * Section 5 social sign-up: a new Facebook user becomes an approved rider with a zero wallet;
 * missing names are a blank space. Facebook hands out confirmed emails only, so an account with
 * the same email is the same person and gets linked.
 */
async function accountOf(ctx: AppContext, profile: FacebookProfile): Promise<UserRow> {
  const linked = (await ctx.db.select().from(users).where(eq(users.facebookId, profile.id)).limit(1))[0];
  if (linked) return linked;
  const email = profile.email && isStandardEmail(profile.email.trim()) ? profile.email.trim().toLowerCase() : null;
  const sameEmail = email ? await findUserByEmail(ctx.db, email) : undefined;
  if (sameEmail) {
    await ctx.db.update(users).set({ facebookId: profile.id }).where(eq(users.id, sameEmail.id));
    return { ...sameEmail, facebookId: profile.id };
  }
  return insertAccount(
    ctx.db,
    {
      firstName: profile.first_name?.trim() || ' ',
      lastName: profile.last_name?.trim() || ' ',
      email,
      mobile: null,
      usertype: 'rider',
      passwordHash: null,
      loginType: 'facebook',
      facebookId: profile.id,
      approved: true,
      emailVerified: email !== null,
      createdByAdmin: false,
      referralSource: 'social',
    },
    ctx.now(),
  );
}

/** The callback's code, exchanged for the Facebook profile, then our own session. */
export async function facebookSignIn(ctx: AppContext, origin: string, code: string): Promise<SignedIn | SecondStep> {
  if (!(await facebookAvailable(ctx))) throw new AppError('forbidden');
  const { access_token } = await graph(
    ctx,
    '/oauth/access_token',
    { client_id: ctx.config.FACEBOOK_APP_ID ?? '', client_secret: ctx.config.FACEBOOK_APP_SECRET ?? '', redirect_uri: `${origin}${CALLBACK_PATH}`, code },
    tokenAnswer,
  );
  const profile = await graph(ctx, '/me', { fields: 'id,first_name,last_name,email', access_token }, profileAnswer);
  const user = await accountOf(ctx, profile);
  await admit(ctx, user, false);
  // Issue 20 point 5: staff with an authenticator stop here for its code.
  return sessionOrChallenge(ctx, user);
}
