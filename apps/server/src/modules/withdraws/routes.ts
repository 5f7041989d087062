import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { completeWithdraw, listWithdraws, requestWithdraw } from './service';

export function withdrawRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/withdraws', async (request) => ({ withdraws: await listWithdraws(ctx, actorOf(request)) }));
  app.post('/api/withdraws', async (request, reply) => reply.status(201).send({ withdraw: await requestWithdraw(ctx, actorOf(request), request.body) }));
  app.post<{ Params: { id: string } }>('/api/withdraws/:id/complete', async (request) => ({ withdraw: await completeWithdraw(ctx, request.params.id) }));
}
