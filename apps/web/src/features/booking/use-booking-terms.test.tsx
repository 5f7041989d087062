import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useBookingTerms } from './use-booking-terms';

describe('the estimate dialog\'s terms (section 4 payment choice)', () => {
  it('offers cash first for a ride and card first for a delivery', () => {
    expect(renderHook(() => useBookingTerms(false)).result.current.paymentMode).toBe('cash');
    expect(renderHook(() => useBookingTerms(true)).result.current.paymentMode).toBe('card');
  });

  it('sends the chosen payment mode, and a promo code trimmed in capitals', () => {
    const { result } = renderHook(() => useBookingTerms(false));
    expect(result.current.terms()).toEqual({ ok: true, value: { payment_mode: 'cash' } });
    act(() => {
      result.current.setPaymentMode('wallet');
      result.current.setPromo('  save10 ');
    });
    expect(result.current.terms()).toEqual({ ok: true, value: { payment_mode: 'wallet', promo: 'SAVE10' } });
  });

  it('offers no card without a payment provider: a delivery pays from the wallet, a ride in cash (issue 15)', () => {
    expect(renderHook(() => useBookingTerms(true, false)).result.current.paymentMode).toBe('wallet');
    const { result } = renderHook(() => useBookingTerms(false, false));
    act(() => { result.current.setPaymentMode('card'); });
    expect(result.current.terms()).toEqual({ ok: true, value: { payment_mode: 'cash' } });
  });

  it('sends no promo for a blank code', () => {
    const { result } = renderHook(() => useBookingTerms(false));
    act(() => { result.current.setPromo('   '); });
    expect(result.current.terms()).toEqual({ ok: true, value: { payment_mode: 'cash' } });
  });

  it('asks a ride for no recipient, whatever the fields hold', () => {
    const { result } = renderHook(() => useBookingTerms(false));
    expect(result.current.terms().ok).toBe(true);
  });

  it('refuses a delivery without its recipient or a valid phone (section 5)', () => {
    const { result } = renderHook(() => useBookingTerms(true));
    expect(result.current.terms()).toEqual({ ok: false, key: 'deliveryDetailMissing', field: 'deliveryPerson' });
    act(() => {
      result.current.setDetail('deliveryPerson', 'Ann Lee');
      result.current.setDetail('deliveryPersonPhone', '12');
    });
    expect(result.current.terms()).toEqual({ ok: false, key: 'deliveryDetailMissing', field: 'deliveryPersonPhone' });
  });

  it('sends a delivery\'s recipient and instructions, trimmed, with the payment mode', () => {
    const { result } = renderHook(() => useBookingTerms(true));
    act(() => {
      result.current.setDetail('deliveryPerson', ' Ann Lee ');
      result.current.setDetail('deliveryPersonPhone', '+44 20 7946 0000');
      result.current.setDetail('deliveryInstructions', 'Leave at the door');
      result.current.setPromo('ship5');
    });
    expect(result.current.details.deliveryPerson).toBe(' Ann Lee ');
    expect(result.current.terms()).toEqual({
      ok: true,
      value: { payment_mode: 'card', promo: 'SHIP5', deliveryPerson: 'Ann Lee', deliveryPersonPhone: '+44 20 7946 0000', pickUpInstructions: '', deliveryInstructions: 'Leave at the door' },
    });
  });
});
