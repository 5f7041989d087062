import type { PaymentProvider } from '@rideway/contract';
import { fieldOf, isStandardEmail, PUSH_SCREENS, textOf, validateMobile, type PushScreen } from '@rideway/domain';
import { eq, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { enqueue } from '../outbox/service';
import { TEST_CHECKOUT_PATH } from '../payments/service';
import { findUserByReferralId } from '../users/accounts';

/**
 * Section 7 /check_user_exists: which of the given email and mobile already have an account.
 * It answers only what the caller typed (a flag per contact), never who the account belongs to.
 */
export async function checkUserExists(ctx: AppContext, input: unknown): Promise<{ users: { email: boolean; mobile: boolean }[] }> {
  const emailValue = fieldOf(input, 'email');
  const mobileValue = fieldOf(input, 'mobile');
  const email = isStandardEmail(emailValue) ? emailValue.trim().toLowerCase() : undefined;
  const mobile = validateMobile(mobileValue);
  if (!email && !mobile.ok) throw new AppError('email_or_mobile_issue');
  const conditions = [email ? eq(users.email, email) : undefined, mobile.ok ? eq(users.mobile, mobile.value) : undefined].filter((c) => c !== undefined);
  const rows = await ctx.db.select({ email: users.email, mobile: users.mobile }).from(users).where(or(...conditions)).limit(2);
  return { users: rows.map((row) => ({ email: email !== undefined && row.email === email, mobile: mobile.ok && row.mobile === mobile.value })) };
}

/** Section 7 /validate_referrer: the uid behind a referral id, or referer_not_found. */
export async function validateReferrer(ctx: AppContext, input: unknown): Promise<{ uid: string }> {
  const referralId = textOf(fieldOf(input, 'referralId'), 40);
  const user = referralId ? await findUserByReferralId(ctx.db, referralId) : undefined;
  if (!user) throw new AppError('referer_not_found', 'referralId');
  return { uid: user.id };
}

/** Section 7 /get_providers: the payment providers in force; the embedded test provider by default. */
export const paymentProviders = (): PaymentProvider[] => [{ name: 'test', link: TEST_CHECKOUT_PATH }];

/** Section 7 /send_notification: a push to the user holding a push token (admins only, decisions.md). */
export async function sendToToken(ctx: AppContext, input: unknown): Promise<{ ok: true }> {
  const token = textOf(fieldOf(input, 'token'), 500);
  const title = textOf(fieldOf(input, 'title'), 100)?.trim();
  const msg = textOf(fieldOf(input, 'msg'), 1000)?.trim();
  const screen = fieldOf(input, 'screen');
  if (!token || !title || !msg) throw new AppError('notification_blank');
  if (screen !== undefined && !(PUSH_SCREENS as readonly unknown[]).includes(screen)) throw new AppError('validation_error', 'screen');
  const user = (await ctx.db.select({ id: users.id }).from(users).where(eq(users.pushToken, token)).limit(1))[0];
  if (!user) throw new AppError('no_user_match');
  await enqueue(ctx.db, { channel: 'push', recipient: user.id, payload: { title, msg, ...(screen ? { screen: screen as PushScreen } : {}) } }, ctx.now());
  return { ok: true };
}
