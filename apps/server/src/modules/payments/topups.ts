/**
 * Security-critical: wallet top-ups by card (issue 18). A rider starts a top-up (a pending row)
 * within the settings' limits per rider and 24 hours (a count and an amount, against card
 * testing), pays it through the provider's checkout, and the wallet is credited (txRef TopUp)
 * only by the provider's confirmation, once (payments/confirm.ts).
 */
import { randomUUID } from 'node:crypto';
import type { TopupAnswer, TopupRequest } from '@rideway/contract';
import { fromMinor, toMinor } from '@rideway/domain';
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { topups } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { providerInForce } from '../../providers/payments/in-force';
import { getSettings } from '../settings/service';
import { lockWallet } from '../wallet/ledger';

const DAY_MS = 24 * 3600_000;

export async function startTopup(ctx: AppContext, actor: Actor, request: TopupRequest): Promise<TopupAnswer> {
  const provider = await providerInForce(ctx.db, ctx.config, request.provider);
  if (!provider?.createCheckout) throw new AppError('payment_mode_invalid', 'provider');
  const amountMinor = toMinor(request.amount);
  const now = ctx.now();
  const id = randomUUID();
  await ctx.db.transaction(async (tx) => {
    // One rider's top-ups are counted one at a time.
    await lockWallet(tx, actor.uid);
    const settings = await getSettings(tx);
    const today = and(eq(topups.uid, actor.uid), gt(topups.createdAt, now - DAY_MS));
    const started = (await tx.select({ count: sql<string>`count(*)` }).from(topups).where(today))[0]?.count ?? '0';
    if (Number(started) >= settings.topupCountPerDay) throw new AppError('topup_limit_reached');
    const taken = (await tx.select({ total: sql<string>`coalesce(sum(${topups.amountMinor}), 0)` }).from(topups).where(and(today, ne(topups.status, 'failed'))))[0]?.total ?? '0';
    if (Number(taken) + amountMinor > toMinor(settings.topupMaxPerDay)) throw new AppError('topup_amount_exceeded', 'amount');
    await tx.insert(topups).values({ id, uid: actor.uid, provider: provider.name, amountMinor, currency: settings.code, status: 'pending', createdAt: now });
  });
  return { topup_id: id, amount: fromMinor(amountMinor), redirect: provider.checkoutLink, method: 'POST', fields: { topup_id: id } };
}
