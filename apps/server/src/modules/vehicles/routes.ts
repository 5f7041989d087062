import { idParams, noContent, vehicleAddSchema, vehicleListResponse, vehicleRejectSchema, vehicleResponse, vehicleReviewListResponse, vehicleReviewQuery } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import type { RouteApp } from '../../http/routing';
import { activateVehicle, addVehicle, deleteVehicle, listDriverVehicles, listVehiclesForReview, reviewVehicle } from './service';

/** Issue 20 point 3: a driver's vehicles, one active at a time, and their review by an admin or the driver's fleet admin. */
export function vehicleRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/driver/vehicles', {
    config: { access: ['driver'] },
    schema: { summary: "The driver's vehicles, the active one marked", response: { 200: vehicleListResponse } },
  }, async (request) => ({ vehicles: await listDriverVehicles(ctx.db, actorOf(request).uid) }));

  app.post('/api/driver/vehicles', {
    config: { access: ['driver'] },
    schema: { summary: 'Add a vehicle (car type, make, model, number and a photo) for review', body: vehicleAddSchema, response: { 201: vehicleResponse } },
  }, async (request, reply) => reply.status(201).send({ vehicle: await addVehicle(ctx, actorOf(request), request.body) }));

  app.delete('/api/driver/vehicles/:id', {
    config: { access: ['driver'] },
    schema: { summary: 'Delete an own vehicle (not the active one, nor the only one)', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    await deleteVehicle(ctx, actorOf(request), request.params.id);
    return reply.status(204).send(null);
  });

  app.post('/api/driver/vehicles/:id/activate', {
    config: { access: ['driver'] },
    schema: { summary: 'Drive this approved vehicle from now on (not during a trip); its car type is the one dispatch matches', params: idParams, response: { 200: vehicleResponse } },
  }, async (request) => ({ vehicle: await activateVehicle(ctx, actorOf(request), request.params.id) }));

  app.get('/api/vehicles', {
    config: { access: ['admin', 'fleetadmin'] },
    schema: { summary: "Drivers' vehicles to review (a fleet admin: its own drivers'), by status", querystring: vehicleReviewQuery, response: { 200: vehicleReviewListResponse } },
  }, async (request) => ({ vehicles: await listVehiclesForReview(ctx, actorOf(request), request.query.status) }));

  app.post('/api/vehicles/:id/approve', {
    config: { access: ['admin', 'fleetadmin'] },
    schema: { summary: 'Approve a pending vehicle', params: idParams, response: { 200: vehicleResponse } },
  }, async (request) => ({ vehicle: await reviewVehicle(ctx, actorOf(request), request.params.id, { status: 'approved' }) }));

  app.post('/api/vehicles/:id/reject', {
    config: { access: ['admin', 'fleetadmin'] },
    schema: { summary: 'Reject a pending or approved vehicle with the reason the driver reads (the active one: the driver goes offline)', params: idParams, body: vehicleRejectSchema, response: { 200: vehicleResponse } },
  }, async (request) => ({ vehicle: await reviewVehicle(ctx, actorOf(request), request.params.id, { status: 'rejected', reason: request.body.reason }) }));
}
