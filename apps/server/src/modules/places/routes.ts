import { editPlaceRequestSchema, idParams, noContent, savedPlaceResponse, savedPlacesResponse, savePlaceRequestSchema } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import type { RouteApp } from '../../http/routing';
import { editPlace, listPlaces, removePlace, savePlace } from './service';

/** Section 3's savedAddresses are the rider's: drops are recorded for the booking's customer only. */
const RIDERS = ['rider'] as const;

/** Issue 17 point 12: the rider's saved places, offered first in place search and edited on the profile. */
export function savedPlaceRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/me/places', {
    config: { access: RIDERS, writesEvents: false },
    schema: { summary: 'The own saved places (drops recorded and places saved), the most used first', response: { 200: savedPlacesResponse } },
  }, async (request) => listPlaces(ctx, actorOf(request)));

  app.post('/api/me/places', {
    config: { access: RIDERS, writesEvents: false },
    schema: {
      summary: 'Save a place, with the label Home or Work or a name (an unnamed place within 0.1 distance units is named instead: 200)',
      body: savePlaceRequestSchema,
      response: { 200: savedPlaceResponse, 201: savedPlaceResponse },
    },
  }, async (request, reply) => {
    const { place, created } = await savePlace(ctx, actorOf(request), request.body);
    return reply.status(created ? 201 : 200).send({ place });
  });

  app.patch('/api/me/places/:id', {
    config: { access: RIDERS, writesEvents: false },
    schema: { summary: "Rename an own saved place: its label (Home, Work) or name replaced; null for none", params: idParams, body: editPlaceRequestSchema, response: { 200: savedPlaceResponse } },
  }, async (request) => editPlace(ctx, actorOf(request), request.params.id, request.body));

  app.delete('/api/me/places/:id', {
    config: { access: RIDERS, writesEvents: false },
    schema: { summary: 'Remove an own saved place', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    await removePlace(ctx, actorOf(request), request.params.id);
    return reply.status(204).send(null);
  });
}
