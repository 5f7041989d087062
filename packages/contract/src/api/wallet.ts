import { z } from 'zod';
import { money, uid } from '../primitives';

/** Wallet credits and withdraw requests. */

export const walletCreditSchema = z.object({ uid, amount: money });
export const withdrawRequestSchema = z.object({ amount: money, bankName: z.string().optional(), bankCode: z.string().optional(), bankAccount: z.string().optional() });
