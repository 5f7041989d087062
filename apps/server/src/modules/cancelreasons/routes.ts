import { cancelReasonInputSchema } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { addCancelReason, deleteCancelReason, editCancelReason, listCancelReasons } from './service';

type IdParams = { id: string };

export function cancelReasonRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/cancel-reasons', withSummary('Cancellation reasons, by value'), async () => ({ reasons: await listCancelReasons(ctx) }));
  app.post('/api/cancel-reasons', withBody('Add a reason', cancelReasonInputSchema), async (request, reply) => reply.status(201).send({ reason: await addCancelReason(ctx, request.body) }));
  app.patch<{ Params: IdParams }>('/api/cancel-reasons/:id', withBody('Rename a reason', cancelReasonInputSchema), async (request) => ({ reason: await editCancelReason(ctx, request.params.id, request.body) }));
  app.delete<{ Params: IdParams }>('/api/cancel-reasons/:id', withSummary('Delete a reason; the rest are renumbered from 0'), async (request, reply) => {
    await deleteCancelReason(ctx, request.params.id);
    return reply.status(204).send();
  });
}
