import { withdrawRequestSchema } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { actorOf } from '../../http/actor';
import { completeWithdraw, listWithdraws, requestWithdraw } from './service';

export function withdrawRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/withdraws', withSummary('Withdraw requests (a driver: its own)'), async (request) => ({ withdraws: await listWithdraws(ctx, actorOf(request)) }));
  app.post('/api/withdraws', withBody('Ask to withdraw from the wallet', withdrawRequestSchema), async (request, reply) => reply.status(201).send({ withdraw: await requestWithdraw(ctx, actorOf(request), request.body) }));
  app.post<{ Params: { id: string } }>('/api/withdraws/:id/complete', withSummary('Mark a withdrawal paid'), async (request) => ({ withdraw: await completeWithdraw(ctx, request.params.id) }));
}
