import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { addCancelReason, deleteCancelReason, editCancelReason, listCancelReasons } from './service';

type IdParams = { id: string };

export function cancelReasonRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/cancel-reasons', async () => ({ reasons: await listCancelReasons(ctx) }));
  app.post('/api/cancel-reasons', async (request, reply) => reply.status(201).send({ reason: await addCancelReason(ctx, request.body) }));
  app.patch<{ Params: IdParams }>('/api/cancel-reasons/:id', async (request) => ({ reason: await editCancelReason(ctx, request.params.id, request.body) }));
  app.delete<{ Params: IdParams }>('/api/cancel-reasons/:id', async (request, reply) => {
    await deleteCancelReason(ctx, request.params.id);
    return reply.status(204).send();
  });
}
