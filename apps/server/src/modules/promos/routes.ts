import { idParams, noContent, promoCreateSchema, promoListResponse, promoResponse, promoUpdateSchema } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, type RouteApp } from '../../http/routing';
import { createPromo, deletePromo, listPromos, updatePromo } from './service';

export function promoRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/promos', {
    config: { access: ADMIN },
    schema: { summary: 'Promos, newest first', response: { 200: promoListResponse } },
  }, async () => ({ promos: await listPromos(ctx) }));

  app.post('/api/promos', {
    config: { access: ADMIN },
    schema: { summary: 'Add a promo', body: promoCreateSchema, response: { 201: promoResponse } },
  }, async (request, reply) => reply.status(201).send({ promo: await createPromo(ctx, actorOf(request), request.body) }));

  app.patch('/api/promos/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Edit a promo (user_avail is read-only)', params: idParams, body: promoUpdateSchema, response: { 200: promoResponse } },
  }, async (request) => ({ promo: await updatePromo(ctx, actorOf(request), request.params.id, request.body) }));

  app.delete('/api/promos/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Delete a promo', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    await deletePromo(ctx, actorOf(request), request.params.id);
    return reply.status(204).send(null);
  });
}
