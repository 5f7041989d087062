import { idParams, withdrawListResponse, withdrawRequestSchema, withdrawResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, type RouteApp } from '../../http/routing';
import { completeWithdraw, listWithdraws, rejectWithdraw, requestWithdraw } from './service';

export function withdrawRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/withdraws', {
    config: { access: ['admin', 'driver'] },
    schema: { summary: 'Withdraw requests (a driver: its own)', response: { 200: withdrawListResponse } },
  }, async (request) => ({ withdraws: await listWithdraws(ctx, actorOf(request)) }));

  app.post('/api/withdraws', {
    config: { access: ['driver'], idempotent: true },
    schema: { summary: 'Ask to withdraw from the wallet', body: withdrawRequestSchema, response: { 201: withdrawResponse } },
  }, async (request, reply) => reply.status(201).send({ withdraw: await requestWithdraw(ctx, actorOf(request), request.body) }));

  app.post('/api/withdraws/:id/complete', {
    config: { access: ADMIN },
    schema: { summary: 'Mark a withdrawal paid', params: idParams, response: { 200: withdrawResponse } },
  }, async (request) => ({ withdraw: await completeWithdraw(ctx, actorOf(request), request.params.id) }));

  app.post('/api/withdraws/:id/reject', {
    config: { access: ADMIN },
    schema: { summary: "Refuse a withdrawal: the amount goes back to the driver's wallet", params: idParams, response: { 200: withdrawResponse } },
  }, async (request) => ({ withdraw: await rejectWithdraw(ctx, actorOf(request), request.params.id) }));
}
