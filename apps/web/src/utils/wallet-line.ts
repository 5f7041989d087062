import type { WalletHistoryEntry } from '@rideway/contract';
import type { TFunction } from 'i18next';

/** The ledger's reasons (txRef) that have a text of their own; a withdrawal's txRef is its request id. */
const REASONS = new Set(['TripEarning', 'CashCollected', 'TripPayment', 'CancellationCharge', 'Refund', 'ReferralBonus', 'AdminCredit', 'TopUp']);

/**
 * Issue 17: a wallet line says why it moved and, for a trip's money, which trip (its reference):
 * "Trip earnings · trip RW12AB". A line without a known reason reads as `fallbackKey` (Credit, Debit, Withdrawal).
 */
export function walletLineText(t: TFunction, entry: Pick<WalletHistoryEntry, 'txRef' | 'booking_id'>, fallbackKey: string): string {
  const reason = REASONS.has(entry.txRef) ? t(`wallet_ref_${entry.txRef}`) : t(fallbackKey);
  return entry.booking_id ? t('wallet_line_trip', { reason, reference: entry.booking_id }) : reason;
}
