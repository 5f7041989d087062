import { idParams, trackingListResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ALL, type RouteApp } from '../../http/routing';
import { listTracking } from './service';

export function trackingRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/bookings/:id/tracking', {
    config: { access: ALL },
    schema: { summary: "The trip's tracking entries (STARTED and REACHED)", params: idParams, response: { 200: trackingListResponse } },
  }, async (request) => ({ tracking: await listTracking(ctx, actorOf(request), request.params.id) }));
}
