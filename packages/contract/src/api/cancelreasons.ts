import { z } from 'zod';
import { cancelReasonSchema } from '../catalogue';

/** Cancellation reasons (section 9). */

export const cancelReasonInputSchema = z.object({ label: z.string().trim().min(1).max(200) });
export type CancelReasonInput = z.output<typeof cancelReasonInputSchema>;

export const cancelReasonListResponse = z.object({ reasons: z.array(cancelReasonSchema) });
export const cancelReasonResponse = z.object({ reason: cancelReasonSchema });
