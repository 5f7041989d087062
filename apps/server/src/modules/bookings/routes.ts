import { bookingRequestSchema } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { withBody, withSummary } from '../../http/docs';
import { createBooking } from './create';
import { estimateTrip } from './estimate';
import { addTripPhoto } from './photos';
import {
  acceptBooking,
  arriveBooking,
  assignDriver,
  cancelBooking,
  completeBooking,
  driverTasks,
  getBooking,
  listBookings,
  payBooking,
  reachBooking,
  startBooking,
  view,
} from './service';

type IdParams = { id: string };

export function estimateRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/estimates', withSummary('Fare estimate: route from the maps port, fare from the domain'), async (request) => {
    const { carType: _carType, extras: _extras, ...estimate } = await estimateTrip(ctx, request.body);
    return estimate;
  });
}

export function bookingRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/bookings', withBody('Book a trip or a parcel (amounts are computed by the server)', bookingRequestSchema), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(view(await createBooking(ctx, actor, request.body), actor));
  });
  app.get('/api/bookings', withSummary("The caller's bookings, newest first"), async (request) => ({ bookings: await listBookings(ctx, actorOf(request)) }));
  app.get<{ Params: IdParams }>('/api/bookings/:id', withSummary('One booking'), async (request) => getBooking(ctx, actorOf(request), request.params.id));
  app.get('/api/driver/tasks', withSummary('NEW bookings that request this driver'), async (request) => ({ tasks: await driverTasks(ctx, actorOf(request)) }));
  app.post<{ Params: IdParams }>('/api/bookings/:id/accept', withSummary('Accept a requested trip'), async (request) => acceptBooking(ctx, actorOf(request), request.params.id));
  app.post<{ Params: IdParams }>('/api/bookings/:id/arrive', withSummary('Arrived at the pickup'), async (request) => arriveBooking(ctx, actorOf(request), request.params.id));
  app.post<{ Params: IdParams }>('/api/bookings/:id/start', withSummary("Start the trip (the rider's OTP when otp_secure)"), async (request) => startBooking(ctx, actorOf(request), request.params.id, request.body));
  app.post<{ Params: IdParams }>('/api/bookings/:id/photos', withSummary("The parcel's photo at the pickup or the drop (delivery; the trip's driver)"), async (request) => {
    const actor = actorOf(request);
    return view(await addTripPhoto(ctx, actor, request.params.id, request.body), actor);
  });
  app.post<{ Params: IdParams }>('/api/bookings/:id/reach', withSummary('Reached the drop'), async (request) => reachBooking(ctx, actorOf(request), request.params.id));
  app.post<{ Params: IdParams }>('/api/bookings/:id/pay', withSummary('Pay (rider: wallet) or close a cash, wallet or prepaid trip (driver)'), async (request) => payBooking(ctx, actorOf(request), request.params.id, request.body));
  app.post<{ Params: IdParams }>('/api/bookings/:id/complete', withSummary('Complete with an optional rating'), async (request) => completeBooking(ctx, actorOf(request), request.params.id, request.body));
  app.post<{ Params: IdParams }>('/api/bookings/:id/cancel', withSummary('Cancel with a reason'), async (request) => cancelBooking(ctx, actorOf(request), request.params.id, request.body));
  app.post<{ Params: IdParams }>('/api/bookings/:id/assign', withSummary('Assign a driver (autoDispatch off)'), async (request) => assignDriver(ctx, actorOf(request), request.params.id, request.body));
}
