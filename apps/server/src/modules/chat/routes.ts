import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { withSummary } from '../../http/docs';
import { listChat, sendChat } from './service';

type IdParams = { id: string };

export function chatRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: IdParams }>('/api/bookings/:id/chat', withSummary("The booking's chat, between its rider and its driver"), async (request) => ({
    messages: await listChat(ctx, actorOf(request), request.params.id),
  }));
  app.post<{ Params: IdParams }>('/api/bookings/:id/chat', withSummary('Send a chat message to the other party'), async (request, reply) =>
    reply.status(201).send(await sendChat(ctx, actorOf(request), request.params.id, request.body)),
  );
}
