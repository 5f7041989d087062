import { etaResponse, idParams } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ALL, type RouteApp } from '../../http/routing';
import { bookingEta } from './service';

export function etaRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/bookings/:id/eta', {
    config: { access: ALL },
    schema: { summary: "The driver's road distance and time to the pickup, or once started to the drop (the trip's parties)", params: idParams, response: { 200: etaResponse } },
  }, async (request) => bookingEta(ctx, actorOf(request), request.params.id));
}
