import { cancelReasonInputSchema, cancelReasonListResponse, cancelReasonResponse, idParams, noContent } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, ALL, type RouteApp } from '../../http/routing';
import { addCancelReason, deleteCancelReason, editCancelReason, listCancelReasons } from './service';

export function cancelReasonRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/cancel-reasons', {
    // Read by every app at start; only the caller's identity is read (issue 21 point 1).
    config: { access: ALL, sessionCache: true },
    schema: { summary: 'Cancellation reasons, by value', response: { 200: cancelReasonListResponse } },
  }, async () => ({ reasons: await listCancelReasons(ctx) }));

  app.post('/api/cancel-reasons', {
    config: { access: ADMIN },
    schema: { summary: 'Add a reason', body: cancelReasonInputSchema, response: { 201: cancelReasonResponse } },
  }, async (request, reply) => reply.status(201).send({ reason: await addCancelReason(ctx, actorOf(request), request.body) }));

  app.patch('/api/cancel-reasons/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Rename a reason', params: idParams, body: cancelReasonInputSchema, response: { 200: cancelReasonResponse } },
  }, async (request) => ({ reason: await editCancelReason(ctx, actorOf(request), request.params.id, request.body) }));

  app.delete('/api/cancel-reasons/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Delete a reason; the rest are renumbered from 0', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    await deleteCancelReason(ctx, actorOf(request), request.params.id);
    return reply.status(204).send(null);
  });
}
