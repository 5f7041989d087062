import { chatListResponse, chatMessageInputSchema, chatMessageSchema, idParams } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import type { RouteApp } from '../../http/routing';
import { listChat, sendChat } from './service';

const CHAT_PARTIES = ['rider', 'driver'] as const;

export function chatRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/bookings/:id/chat', {
    config: { access: CHAT_PARTIES },
    schema: { summary: "The booking's chat, between its rider and its driver", params: idParams, response: { 200: chatListResponse } },
  }, async (request) => ({ messages: await listChat(ctx, actorOf(request), request.params.id) }));

  app.post('/api/bookings/:id/chat', {
    config: { access: CHAT_PARTIES },
    schema: { summary: 'Send a chat message to the other party', params: idParams, body: chatMessageInputSchema, response: { 201: chatMessageSchema } },
  }, async (request, reply) => reply.status(201).send(await sendChat(ctx, actorOf(request), request.params.id, request.body)));
}
