import type { CheckUserExistsRequest, PaymentProvider, SendNotificationRequest } from '@rideway/contract';
import { eq, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { enqueue } from '../outbox/service';
import { providersInForce } from '../../providers/payments/in-force';
import { findUserByReferralId } from '../accounts/accounts';

/**
 * Section 7 /check_user_exists: which of the given email and mobile already have an account.
 * It answers only what the caller typed (a flag per contact), never who the account belongs to.
 */
export async function checkUserExists(ctx: AppContext, { email, mobile }: CheckUserExistsRequest): Promise<{ users: { email: boolean; mobile: boolean }[] }> {
  const conditions = [email ? eq(users.email, email) : undefined, mobile ? eq(users.mobile, mobile) : undefined].filter((c) => c !== undefined);
  const rows = await ctx.db.select({ email: users.email, mobile: users.mobile }).from(users).where(or(...conditions)).limit(2);
  return { users: rows.map((row) => ({ email: email !== undefined && row.email === email, mobile: mobile !== undefined && row.mobile === mobile })) };
}

/** Section 7 /validate_referrer: the uid behind a referral id, or referer_not_found. */
export async function validateReferrer(ctx: AppContext, { referralId }: { referralId: string }): Promise<{ uid: string }> {
  const user = await findUserByReferralId(ctx.db, referralId);
  if (!user) throw new AppError('referer_not_found', 'referralId');
  return { uid: user.id };
}

/**
 * Section 7 /get_providers: the payment providers in force, empty when none is (the embedded test
 * provider only with demo data or PAYMENT_TEST_PROVIDER, providers/payments/in-force.ts).
 */
export async function paymentProviders(ctx: AppContext): Promise<PaymentProvider[]> {
  return (await providersInForce(ctx.db, ctx.config)).map((provider) => ({ name: provider.name, link: provider.checkoutLink }));
}

/** Section 7 /send_notification: a push to the user holding a push token (admins only, decisions.md). */
export async function sendToToken(ctx: AppContext, { token, title, msg, screen }: SendNotificationRequest): Promise<{ ok: true }> {
  const user = (await ctx.db.select({ id: users.id }).from(users).where(eq(users.pushToken, token)).limit(1))[0];
  if (!user) throw new AppError('no_user_match');
  await enqueue(ctx.db, { channel: 'push', recipient: user.id, payload: { title, msg, ...(screen ? { screen } : {}) } }, ctx.now());
  return { ok: true };
}
