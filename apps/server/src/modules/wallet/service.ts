import type { WalletCreditRequest, WalletView } from '@rideway/contract';
import { fromMinor, toMinor } from '@rideway/domain';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { findUser } from '../accounts/accounts';
import { enqueue } from '../outbox/service';
import { appendEntry, balanceMinor, history, lockWallet, walletEntryView } from './ledger';
import { renderFor } from '../messages/render';

export async function walletOf(ctx: AppContext, uid: string): Promise<WalletView> {
  const [balance, entries] = await Promise.all([balanceMinor(ctx.db, uid), history(ctx.db, uid)]);
  return {
    walletBalance: fromMinor(balance),
    walletHistory: entries.map(walletEntryView),
  };
}

/** Section 5 and 6: an admin credits a user's wallet (txRef AdminCredit); never an admin's. */
export async function creditWallet(ctx: AppContext, actor: Actor, { uid, amount }: WalletCreditRequest): Promise<{ walletBalance: number }> {
  const target = await findUser(ctx.db, uid);
  // A deleted (anonymised) account takes no money (issue 20).
  if (!target || target.usertype === 'admin' || target.deletedAt !== null) throw new AppError('not_found', 'uid');
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await lockWallet(tx, uid);
    const before = fromMinor(await balanceMinor(tx, uid));
    await appendEntry(tx, { uid, type: 'Credit', amountMinor: toMinor(amount), txRef: 'AdminCredit', at: now });
    const walletBalance = fromMinor(await balanceMinor(tx, uid));
    // Issue 23 point 8: the balance before and after, with the credit that moved it.
    await recordAudit(tx, { actor, action: 'wallet.credit', entityId: uid, before: { walletBalance: before, amount: null, txRef: null }, after: { walletBalance, amount, txRef: 'AdminCredit' }, at: now });
    const render = await renderFor(tx, uid);
    await enqueue(tx, { channel: 'push', recipient: uid, payload: { title: render('push_wallet_title'), msg: render('push_wallet_credited', { amount: amount.toFixed(2), name: actor.user.firstName }), screen: 'wallet' } }, now);
    return { walletBalance };
  });
}
