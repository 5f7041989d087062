import { assignStepSchema, bookingListQuery, carTypeEstimatesRequestSchema, carTypeEstimatesResponse, bookingListResponse, bookingRequestSchema, bookingSchema, cancelStepSchema, completeStepSchema, declineResponse, driverTasksResponse, estimateRequestSchema, estimateResponse, idParams, promoCheckRequestSchema, promoCheckResponse, startStepSchema, tripPhotoSchema } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ALL, type RouteApp } from '../../http/routing';
import { bookingView } from '../dispatch/booking-view';
import { declineOffer } from '../dispatch/decline';
import { createBooking } from './create';
import { estimateCarTypes } from './car-type-estimates';
import { estimateTrip } from './estimate';
import { retryBooking } from './retry';
import { acceptBooking, arriveBooking, assignDriver, cancelBooking, completeBooking, reachBooking, startBooking } from './lifecycle';
import { addTripPhoto } from './photos';
import { checkPromo } from './promo-check';
import { driverTasks, getBooking, listBookings } from './service';

const RIDER_OR_ADMIN = ['rider', 'admin'] as const;
const DRIVER = ['driver'] as const;

export function estimateRoutes(app: RouteApp, ctx: AppContext): void {
  // Estimates and the lists below read the caller's uid and usertype only: their sessions may come
  // from the short session cache (issue 21, point 1).
  app.post('/api/estimates', {
    config: { access: RIDER_OR_ADMIN, sessionCache: true, writesEvents: false },
    schema: { summary: 'Fare estimate: route from the maps port, fare from the domain', body: estimateRequestSchema, response: { 200: estimateResponse } },
  }, async (request) => estimateTrip(ctx, request.body));

  app.post('/api/estimates/car-types', {
    config: { access: RIDER_OR_ADMIN, sessionCache: true, writesEvents: false },
    schema: { summary: 'The trip priced for every car type: one route from the maps port, each fare from the domain (issue 17)', body: carTypeEstimatesRequestSchema, response: { 200: carTypeEstimatesResponse } },
  }, async (request) => estimateCarTypes(ctx, request.body));

  app.post('/api/estimates/promo', {
    config: { access: RIDER_OR_ADMIN },
    schema: { summary: "Apply a promo code to an estimate: the server's discount and total for this rider (nothing is used up)", body: promoCheckRequestSchema, response: { 200: promoCheckResponse } },
  }, async (request) => checkPromo(ctx, actorOf(request), request.body));
}

/** Bookings and section 4's steps; the pay step is the payments module's (payments/routes.ts). */
export function bookingRoutes(app: RouteApp, ctx: AppContext): void {
  app.post('/api/bookings', {
    config: { access: RIDER_OR_ADMIN, idempotent: true },
    schema: { summary: 'Book a trip or a parcel (amounts are computed by the server)', body: bookingRequestSchema, response: { 201: bookingSchema } },
    // A code sent with a booking is a guess like Apply's: it counts toward the same limit (issue 17).
    preHandler: async (request) => { if (request.body.promo !== undefined) await app.rateLimits.count('promo', request); },
  }, async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(bookingView(await createBooking(ctx, actor, request.body), actor));
  });

  app.post('/api/bookings/:id/retry', {
    config: { access: ['rider'] },
    schema: { summary: "Book again a trip nobody took in time: a new booking of the rider's own, same trip, its search starting now (issue 17)", params: idParams, response: { 201: bookingSchema } },
  }, async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(bookingView(await retryBooking(ctx, actor, request.params.id), actor));
  });

  app.get('/api/bookings', {
    config: { access: ALL, sessionCache: true },
    schema: { summary: "The caller's bookings, newest first; searched by reference or name, filtered by status and trip date", querystring: bookingListQuery, response: { 200: bookingListResponse } },
  }, async (request) => ({ bookings: await listBookings(ctx, actorOf(request), request.query) }));

  app.get('/api/bookings/:id', {
    config: { access: ALL },
    schema: { summary: 'One booking', params: idParams, response: { 200: bookingSchema } },
  }, async (request) => getBooking(ctx, actorOf(request), request.params.id));

  app.get('/api/driver/tasks', {
    config: { access: DRIVER, sessionCache: true },
    schema: { summary: 'NEW bookings that request this driver', response: { 200: driverTasksResponse } },
  }, async (request) => ({ tasks: await driverTasks(ctx, actorOf(request)) }));

  app.post('/api/bookings/:id/photos', {
    config: { access: DRIVER },
    schema: { summary: "The parcel's photo at the pickup or the drop (delivery; the trip's driver)", params: idParams, body: tripPhotoSchema, response: { 200: bookingSchema } },
  }, async (request) => {
    const actor = actorOf(request);
    return bookingView(await addTripPhoto(ctx, actor, request.params.id, request.body), actor);
  });

  stepRoutes(app, ctx);
}

/**
 * Section 4's steps: each answers the booking after it, as its caller sees it. They take the
 * session cache (issue 21 point 1): a step reads only who is calling (uid and usertype), and every
 * driver of a trip calls them in quick succession; the booking and the driver are read locked.
 * Each wakes the live relay itself after its commit (afterStep; a decline), not again on its answer.
 */
function stepRoutes(app: RouteApp, ctx: AppContext): void {
  const step = { params: idParams, response: { 200: bookingSchema } };

  app.post('/api/bookings/:id/accept', { config: { access: DRIVER, sessionCache: true, relaysItself: true }, schema: { summary: 'Accept a requested trip', ...step } }, async (request) => {
    const actor = actorOf(request);
    return bookingView(await acceptBooking(ctx, { actor, bookingId: request.params.id }), actor);
  });

  app.post('/api/bookings/:id/decline', {
    config: { access: DRIVER, sessionCache: true, relaysItself: true },
    schema: { summary: 'Decline a trip offered to this driver: the offer goes to the next drivers at once (issue 17)', params: idParams, response: { 200: declineResponse } },
  }, async (request) => declineOffer(ctx, actorOf(request), request.params.id));

  app.post('/api/bookings/:id/arrive', { config: { access: DRIVER, sessionCache: true, relaysItself: true }, schema: { summary: 'Arrived at the pickup', ...step } }, async (request) => {
    const actor = actorOf(request);
    return bookingView(await arriveBooking(ctx, { actor, bookingId: request.params.id }), actor);
  });

  app.post('/api/bookings/:id/start', { config: { access: DRIVER, sessionCache: true, relaysItself: true }, schema: { summary: "Start the trip (the rider's OTP when otp_secure)", body: startStepSchema, ...step } }, async (request) => {
    const actor = actorOf(request);
    return bookingView(await startBooking(ctx, { actor, bookingId: request.params.id, ...request.body }), actor);
  });

  app.post('/api/bookings/:id/reach', { config: { access: DRIVER, sessionCache: true, relaysItself: true }, schema: { summary: 'Reached the drop', ...step } }, async (request) => {
    const actor = actorOf(request);
    return bookingView(await reachBooking(ctx, { actor, bookingId: request.params.id }), actor);
  });

  app.post('/api/bookings/:id/complete', { config: { access: ['rider'], sessionCache: true, relaysItself: true }, schema: { summary: 'Complete with an optional rating', body: completeStepSchema, ...step } }, async (request) => {
    const actor = actorOf(request);
    return bookingView(await completeBooking(ctx, { actor, bookingId: request.params.id, ...request.body }), actor);
  });

  app.post('/api/bookings/:id/cancel', { config: { access: RIDER_OR_ADMIN, sessionCache: true, relaysItself: true }, schema: { summary: 'Cancel with a reason', body: cancelStepSchema, ...step } }, async (request) => {
    const actor = actorOf(request);
    return bookingView(await cancelBooking(ctx, { actor, bookingId: request.params.id, ...request.body }), actor);
  });

  app.post('/api/bookings/:id/assign', { config: { access: ['admin'], sessionCache: true, relaysItself: true }, schema: { summary: 'Assign a driver (autoDispatch off)', body: assignStepSchema, ...step } }, async (request) => {
    const actor = actorOf(request);
    return bookingView(await assignDriver(ctx, { actor, bookingId: request.params.id, ...request.body }), actor);
  });
}
