import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fareFor, customerPaid, driverShare } from './fare';
import { toMinor } from './money';
import { settlePayment, settlementInMajor } from './payment';

const trip = { trip_cost: 25.85, discount: 5, driver_share: 23.5, prepaid: false };

describe('section 4 PAID: wallet movements', () => {
  it('cash: the driver is credited driver_share and debited the cash taken', () => {
    const s = settlePayment({ ...trip, payment_mode: 'cash' });
    expect(s).toEqual({
      customer_paid: 2085,
      cashPaymentAmount: 2085,
      cardPaymentAmount: 0,
      usedWalletMoney: 0,
      payableAmount: 2085,
      moves: [
        { party: 'driver', type: 'Credit', amount: 2350, txRef: 'TripEarning' },
        { party: 'driver', type: 'Debit', amount: 2085, txRef: 'CashCollected' },
      ],
    });
  });

  it('wallet: the rider\'s wallet is debited what the rider pays, the driver credited the share', () => {
    const s = settlePayment({ ...trip, payment_mode: 'wallet' });
    expect(s.usedWalletMoney).toBe(2085);
    expect(s.moves).toEqual([
      { party: 'customer', type: 'Debit', amount: 2085, txRef: 'TripPayment' },
      { party: 'driver', type: 'Credit', amount: 2350, txRef: 'TripEarning' },
    ]);
  });

  it('card: paid through the provider, the driver credited the share', () => {
    const s = settlePayment({ ...trip, payment_mode: 'card' });
    expect(s.cardPaymentAmount).toBe(2085);
    expect(s.moves).toEqual([{ party: 'driver', type: 'Credit', amount: 2350, txRef: 'TripEarning' }]);
  });

  it('prepaid: nothing is due now; the driver is still credited the share', () => {
    const s = settlePayment({ ...trip, payment_mode: 'card', prepaid: true });
    expect(s.payableAmount).toBe(0);
    expect(s.cardPaymentAmount).toBe(0);
    expect(s.moves).toEqual([{ party: 'driver', type: 'Credit', amount: 2350, txRef: 'TripEarning' }]);
  });

  it('converts to major units for the API', () => {
    const s = settlementInMajor(settlePayment({ ...trip, payment_mode: 'cash' }));
    expect(s.customer_paid).toBe(20.85);
    expect(s.moves[1]).toEqual({ party: 'driver', type: 'Debit', amount: 20.85, txRef: 'CashCollected' });
  });

  it('property: money is conserved; what the rider pays = driver net + platform net', () => {
    const cents = (max: number) => fc.integer({ min: 0, max }).map((m) => m / 100);
    fc.assert(
      fc.property(
        cents(100_000),
        cents(5_000),
        fc.constantFrom('flat' as const, 'percentage' as const),
        cents(2_000),
        fc.constantFrom('cash' as const, 'wallet' as const, 'card' as const),
        (rate, fee, feeType, discountWanted, mode) => {
          const fare = fareFor(
            { base_fare: 0, rate_per_unit_distance: rate, rate_per_hour: 0, min_fare: 0, convenience_fees: fee, convenience_fee_type: feeType },
            { distance: 1, duration: 0 },
          );
          const discount = Math.min(discountWanted, fare.grandTotal);
          const share = driverShare(fare.grandTotal, fare.convenience_fees);
          const s = settlePayment({ trip_cost: fare.grandTotal, discount, driver_share: share, payment_mode: mode, prepaid: false });
          expect(s.customer_paid).toBe(toMinor(customerPaid(fare.grandTotal, discount)));
          const driverNet = s.moves.filter((m) => m.party === 'driver').reduce((t, m) => t + (m.type === 'Credit' ? m.amount : -m.amount), 0);
          const driverCashInHand = s.cashPaymentAmount;
          // The platform keeps the fee and pays the discount.
          const platformNet = toMinor(fare.convenience_fees) - toMinor(discount);
          expect(driverNet + driverCashInHand + platformNet).toBe(s.customer_paid);
          expect(s.cashPaymentAmount + s.cardPaymentAmount + s.usedWalletMoney).toBe(s.payableAmount);
        },
      ),
    );
  });
});
