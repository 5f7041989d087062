import { z } from 'zod';
import { epochMs, money, uid } from './primitives';

/** Section 3 Wallet history entry. */
export const walletHistoryEntrySchema = z.object({
  id: z.string(),
  type: z.enum(['Credit', 'Debit', 'Withdraw']),
  amount: money,
  date: epochMs,
  txRef: z.string(),
});
export type WalletHistoryEntry = z.infer<typeof walletHistoryEntrySchema>;

/** Section 3 Withdraw. */
export const withdrawSchema = z.object({
  id: z.string(),
  uid,
  date: epochMs,
  name: z.string(),
  amount: money,
  processed: z.boolean(),
  procesDate: epochMs.nullable(),
  bankName: z.string().nullable(),
  bankCode: z.string().nullable(),
  bankAccount: z.string().nullable(),
});
export type Withdraw = z.infer<typeof withdrawSchema>;

/** Section 3 Driver earning row. */
export const driverEarningRowSchema = z.object({
  year: z.number().int(),
  month: z.number().int().min(1).max(12),
  monthsName: z.string(),
  driver: uid,
  driverName: z.string(),
  driverVehicleNo: z.string(),
  bookings: z.number().int().nonnegative(),
  driverShare: money,
});
export type DriverEarningRow = z.infer<typeof driverEarningRowSchema>;

/** Section 3 Earning report row; profit = convenienceFee - discountAmount. */
export const earningReportRowSchema = z.object({
  year: z.number().int(),
  month: z.number().int().min(1).max(12),
  monthsName: z.string(),
  bookings: z.number().int().nonnegative(),
  tripCost: money,
  rideCost: money,
  convenienceFee: money,
  discountAmount: money,
  customerPaid: money,
  driverShare: money,
  myEarning: money,
  profit: money,
});
export type EarningReportRow = z.infer<typeof earningReportRowSchema>;

/** Section 4: the dashboard's gross earnings cards. */
export const grossEarningsSchema = z.object({ today: money, thisMonth: money, total: money });
export type GrossEarningsCards = z.infer<typeof grossEarningsSchema>;
