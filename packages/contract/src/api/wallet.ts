import { validateCreditAmount, validateWalletAmount } from '@rideway/domain';
import { z } from 'zod';
import { keyedString } from '../http';
import { walletHistoryEntrySchema, withdrawSchema } from '../money-records';
import { money } from '../primitives';
import { checkedInput, formNumber } from './form-input';

/** Wallet credits and withdraw requests (sections 5 and 6). */

/** POST /api/wallet/credit: a user chosen and an amount above 0, else no_details_error. */
export const walletCreditSchema = z.object({
  uid: keyedString('no_details_error', 128).trim().min(1),
  amount: checkedInput(formNumber('no_details_error'), validateCreditAmount),
});
export type WalletCreditRequest = z.output<typeof walletCreditSchema>;

/**
 * POST /api/withdraws: an amount above 0 (no_details_error); bank details that are left out or
 * blank come from the driver's profile.
 */
export const withdrawRequestSchema = z.object({
  amount: checkedInput(formNumber('no_details_error'), (value) => validateWalletAmount(value)),
  bankName: z.string().max(100).optional(),
  bankCode: z.string().max(50).optional(),
  bankAccount: z.string().max(50).optional(),
});
export type WithdrawRequest = z.output<typeof withdrawRequestSchema>;

export const walletResponse = z.object({ walletBalance: money, walletHistory: z.array(walletHistoryEntrySchema) });
export type WalletView = z.output<typeof walletResponse>;
export const walletCreditResponse = z.object({ walletBalance: money });
export const withdrawResponse = z.object({ withdraw: withdrawSchema });
export const withdrawListResponse = z.object({ withdraws: z.array(withdrawSchema) });
