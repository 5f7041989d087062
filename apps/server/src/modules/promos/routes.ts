import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { createPromo, deletePromo, listPromos, updatePromo } from './service';

type IdParams = { id: string };

export function promoRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/promos', async () => ({ promos: await listPromos(ctx) }));
  app.post('/api/promos', async (request, reply) => reply.status(201).send({ promo: await createPromo(ctx, request.body) }));
  app.patch<{ Params: IdParams }>('/api/promos/:id', async (request) => ({ promo: await updatePromo(ctx, request.params.id, request.body) }));
  app.delete<{ Params: IdParams }>('/api/promos/:id', async (request, reply) => {
    await deletePromo(ctx, request.params.id);
    return reply.status(204).send();
  });
}
