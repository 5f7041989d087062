import { carTypeCreateSchema, carTypeUpdateSchema } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { createCarType, deleteCarType, listCarTypes, updateCarType } from './service';

type IdParams = { id: string };

export function carTypeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/cartypes', withSummary('Car types'), async () => ({ cartypes: await listCarTypes(ctx) }));
  app.post('/api/cartypes', withBody('Add a car type', carTypeCreateSchema), async (request, reply) => reply.status(201).send({ cartype: await createCarType(ctx, request.body) }));
  app.patch<{ Params: IdParams }>('/api/cartypes/:id', withBody('Edit a car type', carTypeUpdateSchema), async (request) => ({ cartype: await updateCarType(ctx, request.params.id, request.body) }));
  app.delete<{ Params: IdParams }>('/api/cartypes/:id', withSummary('Delete a car type'), async (request, reply) => {
    await deleteCarType(ctx, request.params.id);
    return reply.status(204).send();
  });
}
