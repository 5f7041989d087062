import type { AppContext } from '../context';
import { flushPositions, sweepSilentDrivers } from '../modules/presence/service';
import { pruneTripHistory } from '../modules/tracking/retention';
import { pruneEvents } from '../realtime/events';
import { checkDocumentExpiry } from '../modules/documents/expiry';
import { runDueJobs, type JobHandler } from './runner';
import { checkExpoReceipts, relayPush, type PushChannels } from './push-relay';
import { smsSenderFrom } from '../providers/sms';
import { relaySms } from './sms-relay';

/** The server's timers: every one is safe to run in several processes at once. */
export function startBackground(ctx: AppContext, jobs: Readonly<Record<string, JobHandler>>, push: PushChannels, onError: (error: unknown) => void): NodeJS.Timeout[] {
  const every = (ms: number, work: () => Promise<unknown>) => {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      work()
        .catch(onError)
        .finally(() => {
          busy = false;
        });
    }, ms);
    timer.unref();
    return timer;
  };
  // Issue 19: SMS leave through Twilio or the HTTP gateway when one is configured, else stay in the outbox.
  const sms = smsSenderFrom(ctx.config);
  return [
    ...(sms ? [every(1000, () => relaySms(ctx.db, sms, ctx.now()))] : []),
    every(1000, () => runDueJobs(ctx.db, jobs, ctx.now())),
    // Events written by another process that crashed before relaying them, or by a job.
    every(500, async () => {
      await ctx.live.relay.drain();
    }),
    every(2000, () => flushPositions(ctx)),
    every(2000, () => relayPush(ctx.db, push, ctx.now())),
    every(60_000, () => checkExpoReceipts(ctx.db, push, ctx.now())),
    every(10_000, () => sweepSilentDrivers(ctx)),
    // Issue 20: document reminders and expiries, each claimed once (several processes share it). Every
    // minute: an expiry takes the driver offline within a minute of midnight on the operator's clock.
    every(60_000, () => checkDocumentExpiry(ctx)),
    every(60 * 60 * 1000, () => pruneEvents(ctx.db, ctx.now())),
    // Issue 20 point 4: finished trips' location history, kept no longer than the settings say.
    every(60 * 60 * 1000, () => pruneTripHistory(ctx.db, ctx.now())),
  ];
}
