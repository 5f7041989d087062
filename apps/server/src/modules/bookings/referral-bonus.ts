/**
 * Security-critical: the referral bonus (settings `bonus`; decisions.md, referral bonus). A
 * sign-up with a referral id pays nothing; the referred user's first completed trip (as the rider,
 * or as the driver) pays the bonus to the referred user and to the referrer. A trip is completed
 * when it is PAID (the money has moved; section 6's earnings count it from there), in the paying
 * step's transaction, so it does not wait for the rider's optional rating; at most once per
 * referred user: the referral_bonuses row is the database's guard, so two trips paid at once
 * cannot both pay.
 */
import type { Settings } from '@rideway/contract';
import { toMinor } from '@rideway/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { referralBonuses, users } from '../../db/schema';
import { enqueue } from '../outbox/service';
import { appendEntry } from '../wallet/ledger';
import type { StepEffect } from './step';
import { renderFor } from '../messages/render';

async function payReferralBonus(tx: Tx, uid: string, bookingId: string, settings: Settings, now: number): Promise<void> {
  const referred = (await tx.select({ firstName: users.firstName, referrer: users.signupViaReferral }).from(users).where(eq(users.id, uid)).limit(1))[0];
  if (!referred?.referrer) return;
  const amountMinor = toMinor(settings.bonus);
  // The first completed trip claims the bonus, whatever it is worth then (0 included): never a second.
  const claimed = await tx
    .insert(referralBonuses)
    .values({ referredUid: uid, referrerUid: referred.referrer, bookingId, amountMinor, at: now })
    .onConflictDoNothing()
    .returning({ uid: referralBonuses.referredUid });
  if (claimed.length === 0 || amountMinor <= 0) return;
  const entry = { type: 'Credit', amountMinor, txRef: 'ReferralBonus', at: now, bookingId } as const;
  await appendEntry(tx, { uid, ...entry });
  await enqueue(tx, { channel: 'push', recipient: uid, payload: { title: settings.appName, msg: (await renderFor(tx, uid))('push_referral_bonus'), screen: 'wallet' } }, now);
  // A referrer whose account was deleted since gets nothing.
  const referrer = (await tx.select({ id: users.id }).from(users).where(and(eq(users.id, referred.referrer), isNull(users.deletedAt))).limit(1))[0];
  if (!referrer) return;
  await appendEntry(tx, { uid: referrer.id, ...entry });
  const msg = (await renderFor(tx, referrer.id))('push_referral_bonus_referrer', { name: referred.firstName });
  await enqueue(tx, { channel: 'push', recipient: referrer.id, payload: { title: settings.appName, msg, screen: 'wallet' } }, now);
}

/** PAID: the trip's rider and driver each collect their referral bonus if this is their first completed trip. */
export const referralBonus: StepEffect = async (tx, { booking, plan, settings, now }) => {
  if (plan.to !== 'PAID') return undefined;
  for (const uid of [booking.customer, booking.driver]) {
    if (uid) await payReferralBonus(tx, uid, booking.id, settings, now);
  }
  return undefined;
};
