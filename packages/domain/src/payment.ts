import type { PaymentMode } from './booking-transitions';
import { fromMinor, toMinor } from './money';

/** The booking amounts a settlement depends on, in major units. */
type SettlementInput = {
  trip_cost: number;
  discount: number;
  driver_share: number;
  payment_mode: PaymentMode;
  /** Paid ahead (delivery PAYMENT_PENDING): the rider's money was taken then, not now. */
  prepaid: boolean;
};

/** A wallet ledger move in minor units; positive is a credit, negative a debit. */
type LedgerMove = { party: 'customer' | 'driver'; type: 'Credit' | 'Debit'; amount: number; txRef: string };

/** The payment packet of section 3 and the wallet moves of section 4 PAID, in minor units. */
type Settlement = {
  customer_paid: number;
  cashPaymentAmount: number;
  cardPaymentAmount: number;
  usedWalletMoney: number;
  payableAmount: number;
  moves: LedgerMove[];
};

/**
 * Section 4 PAID: the driver's wallet is credited driver_share, minus any cash the driver took
 * (logged as a Debit): with cash the driver already holds the rider's money and owes the
 * platform its part. A wallet payment debits the rider's wallet by what the rider pays. Every
 * amount is whole minor units, so the moves add up exactly.
 */
export function settlePayment(input: SettlementInput): Settlement {
  const paid = toMinor(input.trip_cost) - toMinor(input.discount);
  const share = toMinor(input.driver_share);
  const mode = input.payment_mode;
  const dueNow = input.prepaid ? 0 : paid;
  const cashPaymentAmount = mode === 'cash' ? dueNow : 0;
  const cardPaymentAmount = mode === 'card' ? dueNow : 0;
  const usedWalletMoney = mode === 'wallet' ? dueNow : 0;
  const moves: LedgerMove[] = [];
  if (usedWalletMoney > 0) moves.push({ party: 'customer', type: 'Debit', amount: usedWalletMoney, txRef: 'TripPayment' });
  if (share > 0) moves.push({ party: 'driver', type: 'Credit', amount: share, txRef: 'TripEarning' });
  if (cashPaymentAmount > 0) moves.push({ party: 'driver', type: 'Debit', amount: cashPaymentAmount, txRef: 'CashCollected' });
  return { customer_paid: paid, cashPaymentAmount, cardPaymentAmount, usedWalletMoney, payableAmount: dueNow, moves };
}

/** The same settlement in major units, for the API. */
export function settlementInMajor(settlement: Settlement): Settlement {
  return {
    customer_paid: fromMinor(settlement.customer_paid),
    cashPaymentAmount: fromMinor(settlement.cashPaymentAmount),
    cardPaymentAmount: fromMinor(settlement.cardPaymentAmount),
    usedWalletMoney: fromMinor(settlement.usedWalletMoney),
    payableAmount: fromMinor(settlement.payableAmount),
    moves: settlement.moves.map((move) => ({ ...move, amount: fromMinor(move.amount) })),
  };
}
