import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { withSummary } from '../../http/docs';
import { liveDrivers, reportLocation, setDriverStatus } from './service';

export function presenceRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The hottest route: positions go to the bus directly (a tracked trip's point kicks the relay
  // itself), the session is cached briefly, and the JSON answer carries only nosniff of the
  // document headers (CSP, frame and HSTS headers mean nothing to a fetch of JSON).
  app.post(
    '/api/driver/location',
    { ...withSummary("The driver's position (lat, lng), every few seconds while online"), config: { writesEvents: false, sessionCache: true }, helmet: false },
    async (request, reply) => reply.header('x-content-type-options', 'nosniff').send(await reportLocation(ctx, actorOf(request), request.body)),
  );
  app.patch('/api/driver/status', withSummary('Go online or offline (driverActiveStatus)'), async (request) => setDriverStatus(ctx, actorOf(request), request.body));
  app.get('/api/drivers/live', withSummary('Online drivers on the live map (a fleet admin sees its own)'), async (request) => ({ drivers: await liveDrivers(ctx, actorOf(request)) }));
}
