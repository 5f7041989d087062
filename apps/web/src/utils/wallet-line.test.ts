import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { walletLineText } from './wallet-line';

/** A stand-in translation: the key and its values, so the test reads which text was chosen. */
const t = ((key: string, values?: Record<string, string>) => (values ? `${key}(${Object.values(values).join(',')})` : key)) as unknown as TFunction;

describe('a wallet line names its reason and its trip (issue 17)', () => {
  it("names a trip's money by its reason and the trip's reference", () => {
    expect(walletLineText(t, { txRef: 'TripEarning', booking_id: 'RW12AB' }, 'wallet_Credit')).toBe('wallet_line_trip(wallet_ref_TripEarning,RW12AB)');
  });
  it('names money without a trip by its reason alone', () => {
    expect(walletLineText(t, { txRef: 'AdminCredit', booking_id: null }, 'wallet_Credit')).toBe('wallet_ref_AdminCredit');
  });
  it('falls back to the type for a reason without a text (a withdrawal, whose txRef is its id)', () => {
    expect(walletLineText(t, { txRef: '5f7c0c1e-withdraw', booking_id: null }, 'wallet_Withdraw')).toBe('wallet_Withdraw');
  });
});
