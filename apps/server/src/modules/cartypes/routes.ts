import { carTypeCreateSchema, carTypeListResponse, carTypeResponse, carTypeUpdateSchema, idParams, noContent } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, type RouteApp } from '../../http/routing';
import { createCarType, deleteCarType, listCarTypes, updateCarType } from './service';

export function carTypeRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/cartypes', {
    // Read by every app at start; a signed-in caller's session costs no query (issue 21 point 1).
    config: { access: 'public', sessionCache: true },
    schema: { summary: 'Car types', response: { 200: carTypeListResponse } },
  }, async () => ({ cartypes: await listCarTypes(ctx) }));

  app.post('/api/cartypes', {
    config: { access: ADMIN },
    schema: { summary: 'Add a car type', body: carTypeCreateSchema, response: { 201: carTypeResponse } },
  }, async (request, reply) => reply.status(201).send({ cartype: await createCarType(ctx, actorOf(request), request.body) }));

  app.patch('/api/cartypes/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Edit a car type', params: idParams, body: carTypeUpdateSchema, response: { 200: carTypeResponse } },
  }, async (request) => ({ cartype: await updateCarType(ctx, actorOf(request), request.params.id, request.body) }));

  app.delete('/api/cartypes/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Delete a car type', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    await deleteCarType(ctx, actorOf(request), request.params.id);
    return reply.status(204).send(null);
  });
}
