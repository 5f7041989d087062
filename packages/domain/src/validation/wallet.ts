import { isMoneyAmount } from '../money';
import { fail, ok, type Result } from '../result';
import { fieldOf, numberOf, textOf } from './fields';

/** The most one admin credit may add, in major units. */
export const MAX_WALLET_CREDIT = 1_000_000;

/**
 * Section 5 add to wallet: a user chosen and an amount above 0, else no_details_error. The
 * amount must also be money (at most 2 decimals) and at most MAX_WALLET_CREDIT.
 */
export function validateAddToWallet(input: unknown): Result<{ uid: string; amount: number }> {
  const uid = textOf(fieldOf(input, 'uid'), 128)?.trim();
  const amount = numberOf(fieldOf(input, 'amount'));
  if (!uid || amount === undefined || amount <= 0 || amount > MAX_WALLET_CREDIT || !isMoneyAmount(amount)) {
    return fail('no_details_error');
  }
  return ok({ uid, amount });
}
