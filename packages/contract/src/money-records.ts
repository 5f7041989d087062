import { z } from 'zod';
import { epochMs, money, uid } from './primitives';

/** Section 3 Wallet history entry. */
export const walletHistoryEntrySchema = z.object({
  id: z.string(),
  type: z.enum(['Credit', 'Debit', 'Withdraw']),
  amount: money,
  /** The currency code of the entry (issue 17): its booking's, else the one in force when it was written. */
  currency: z.string(),
  date: epochMs,
  txRef: z.string(),
  /** The trip the entry belongs to, if any: its id and its reference (section 3 booking_id), so a wallet line names its trip. */
  bookingId: z.string().nullable(),
  booking_id: z.string().nullable(),
});
export type WalletHistoryEntry = z.infer<typeof walletHistoryEntrySchema>;

/** Section 3 Withdraw. */
export const withdrawSchema = z.object({
  id: z.string(),
  uid,
  date: epochMs,
  name: z.string(),
  amount: money,
  /** The currency code in force when it was requested (issue 17). */
  currency: z.string(),
  processed: z.boolean(),
  /** Issue 17: refused by an admin, the amount back in the wallet (never with processed). */
  rejected: z.boolean(),
  /** When an admin decided it: paid out, or rejected. */
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
  /** Issue 17: sums never mix currencies; a month with trips in two has a row for each. */
  currency: z.string(),
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
  /** Issue 17: sums never mix currencies; a month with trips in two has a row for each. */
  currency: z.string(),
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

/** Section 4: the dashboard's gross earnings cards, of the trips made in the currency in force (issue 17). */
export const grossEarningsSchema = z.object({ today: money, thisMonth: money, total: money, currency: z.string() });
export type GrossEarningsCards = z.infer<typeof grossEarningsSchema>;
