import type { AppContext } from '../context';
import { flushPositions, sweepSilentDrivers } from '../modules/presence/service';
import { pruneEvents } from '../realtime/events';
import { runDueJobs, type JobHandler } from './runner';
import { relayPush } from './push-relay';
import type { PushSender } from '../providers/push/webpush';

/** The server's timers: every one is safe to run in several processes at once. */
export function startBackground(ctx: AppContext, jobs: Readonly<Record<string, JobHandler>>, push: PushSender, onError: (error: unknown) => void): NodeJS.Timeout[] {
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
  return [
    every(1000, () => runDueJobs(ctx.db, jobs, ctx.now())),
    // Events written by another process that crashed before relaying them, or by a job.
    every(500, async () => {
      await ctx.live.relay.drain();
    }),
    every(2000, () => flushPositions(ctx)),
    every(2000, () => relayPush(ctx.db, push, ctx.now())),
    every(10_000, () => sweepSilentDrivers(ctx)),
    every(60 * 60 * 1000, () => pruneEvents(ctx.db, ctx.now())),
  ];
}
