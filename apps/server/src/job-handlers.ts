import type { AppContext } from './context';
import { cancelUntaken } from './modules/bookings/lifecycle';
import { refundJobs } from './modules/bookings/refunds';
import { dispatchJobs } from './modules/dispatch/service';
import { cardJobs } from './modules/payments/cards';
import { lookupJobs } from './modules/payments/lookup';
import type { JobHandler } from './jobs/runner';

/** Every kind of durable job the server runs, by kind. */
export const jobHandlers = (ctx: AppContext): Record<string, JobHandler> => ({
  ...dispatchJobs(ctx, (id, reason) => cancelUntaken(ctx, id, reason)),
  ...refundJobs(ctx),
  ...lookupJobs(ctx),
  ...cardJobs(ctx),
});
