import type { WalletHistoryEntry } from '@rideway/contract';
import { fromMinor, toMinor, validateAddToWallet } from '@rideway/domain';
import type { AppContext } from '../../context';
import type { Actor } from '../../http/actor';
import { AppError, unwrap } from '../../http/app-error';
import { enqueue } from '../outbox/service';
import { findUser } from '../users/accounts';
import { appendEntry, balanceMinor, history, lockWallet } from './ledger';

export async function walletOf(ctx: AppContext, uid: string): Promise<{ walletBalance: number; walletHistory: WalletHistoryEntry[] }> {
  const [balance, entries] = await Promise.all([balanceMinor(ctx.db, uid), history(ctx.db, uid)]);
  return {
    walletBalance: fromMinor(balance),
    walletHistory: entries.map((entry) => ({
      id: String(entry.id),
      type: entry.type as WalletHistoryEntry['type'],
      amount: fromMinor(Math.abs(entry.amountMinor)),
      date: entry.at,
      txRef: entry.txRef,
    })),
  };
}

/** Section 5 and 6: an admin credits a user's wallet (txRef AdminCredit); no_details_error otherwise. */
export async function creditWallet(ctx: AppContext, actor: Actor, input: unknown): Promise<{ walletBalance: number }> {
  const { uid, amount } = unwrap(validateAddToWallet(input));
  const target = await findUser(ctx.db, uid);
  if (!target || target.usertype === 'admin') throw new AppError('not_found', 'uid');
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await lockWallet(tx, uid);
    await appendEntry(tx, { uid, type: 'Credit', amountMinor: toMinor(amount), txRef: 'AdminCredit', at: now });
    await enqueue(tx, { channel: 'push', recipient: uid, payload: { title: 'Wallet', msg: `${amount.toFixed(2)} was added to your wallet by ${actor.user.firstName}.`, screen: 'wallet' } }, now);
    return { walletBalance: fromMinor(await balanceMinor(tx, uid)) };
  });
}
