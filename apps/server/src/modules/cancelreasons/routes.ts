import { cancelReasonInputSchema, cancelReasonListResponse, cancelReasonResponse, idParams, noContent } from '@rideway/contract';
import type { AppContext } from '../../context';
import { ADMIN, ALL, type RouteApp } from '../../http/routing';
import { addCancelReason, deleteCancelReason, editCancelReason, listCancelReasons } from './service';

export function cancelReasonRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/cancel-reasons', {
    config: { access: ALL },
    schema: { summary: 'Cancellation reasons, by value', response: { 200: cancelReasonListResponse } },
  }, async () => ({ reasons: await listCancelReasons(ctx) }));

  app.post('/api/cancel-reasons', {
    config: { access: ADMIN },
    schema: { summary: 'Add a reason', body: cancelReasonInputSchema, response: { 201: cancelReasonResponse } },
  }, async (request, reply) => reply.status(201).send({ reason: await addCancelReason(ctx, request.body) }));

  app.patch('/api/cancel-reasons/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Rename a reason', params: idParams, body: cancelReasonInputSchema, response: { 200: cancelReasonResponse } },
  }, async (request) => ({ reason: await editCancelReason(ctx, request.params.id, request.body) }));

  app.delete('/api/cancel-reasons/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Delete a reason; the rest are renumbered from 0', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    await deleteCancelReason(ctx, request.params.id);
    return reply.status(204).send(null);
  });
}
