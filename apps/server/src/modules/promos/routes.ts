import { promoCreateSchema, promoUpdateSchema } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { createPromo, deletePromo, listPromos, updatePromo } from './service';

type IdParams = { id: string };

export function promoRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/promos', withSummary('Promos'), async () => ({ promos: await listPromos(ctx) }));
  app.post('/api/promos', withBody('Add a promo', promoCreateSchema), async (request, reply) => reply.status(201).send({ promo: await createPromo(ctx, request.body) }));
  app.patch<{ Params: IdParams }>('/api/promos/:id', withBody('Edit a promo (user_avail is read-only)', promoUpdateSchema), async (request) => ({ promo: await updatePromo(ctx, request.params.id, request.body) }));
  app.delete<{ Params: IdParams }>('/api/promos/:id', withSummary('Delete a promo'), async (request, reply) => {
    await deletePromo(ctx, request.params.id);
    return reply.status(204).send();
  });
}
