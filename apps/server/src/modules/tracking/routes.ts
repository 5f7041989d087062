import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { withSummary } from '../../http/docs';
import { listTracking } from './service';

export function trackingRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { id: string } }>('/api/bookings/:id/tracking', withSummary("The trip's tracking entries (STARTED and REACHED)"), async (request) => ({
    tracking: await listTracking(ctx, actorOf(request), request.params.id),
  }));
}
