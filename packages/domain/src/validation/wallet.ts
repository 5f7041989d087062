import { isMoneyAmount } from '../money';
import { fail, ok, type Result } from '../result';
import { fieldOf, numberOf, textOf } from './fields';

/** The most one admin credit may add, in major units. */
const MAX_WALLET_CREDIT = 1_000_000;

/**
 * Section 5: a wallet amount is above 0 with at most 2 decimals, as a number or as the text of a
 * form field (no_details_error).
 */
export function validateWalletAmount(value: unknown, max = Number.POSITIVE_INFINITY): Result<number> {
  const amount = numberOf(value);
  if (amount === undefined || amount <= 0 || amount > max || !isMoneyAmount(amount)) return fail('no_details_error');
  return ok(amount);
}

/** Section 5 add to wallet: an amount above 0, at most MAX_WALLET_CREDIT (no_details_error). */
export const validateCreditAmount = (value: unknown): Result<number> => validateWalletAmount(value, MAX_WALLET_CREDIT);

/**
 * Section 5 add to wallet: a user chosen and an amount above 0, else no_details_error. The
 * amount must also be money (at most 2 decimals) and at most MAX_WALLET_CREDIT.
 */
export function validateAddToWallet(input: unknown): Result<{ uid: string; amount: number }> {
  const uid = textOf(fieldOf(input, 'uid'), 128)?.trim();
  const amount = validateCreditAmount(fieldOf(input, 'amount'));
  if (!uid || !amount.ok) return fail('no_details_error');
  return ok({ uid, amount: amount.value });
}
