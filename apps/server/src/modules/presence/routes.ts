import { driverLocationResponse, driverLocationSchema, driverStatusResponse, driverStatusSchema, liveDriversResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import type { RouteApp } from '../../http/routing';
import { liveDrivers, reportLocation, setDriverStatus } from './service';

export function presenceRoutes(app: RouteApp, ctx: AppContext): void {
  // The hottest route: positions go to the bus directly (a tracked trip's point kicks the relay
  // itself), the session is cached briefly, and the JSON answer carries only nosniff of the
  // document headers (CSP, frame and HSTS headers mean nothing to a fetch of JSON).
  app.post('/api/driver/location', {
    config: { access: ['driver'], writesEvents: false, sessionCache: true, documentHeaders: false },
    schema: { summary: "The driver's position (lat, lng), every few seconds while online", body: driverLocationSchema, response: { 200: driverLocationResponse } },
  }, async (request) => reportLocation(ctx, actorOf(request), request.body));

  app.patch('/api/driver/status', {
    config: { access: ['driver'] },
    schema: { summary: 'Go online or offline (driverActiveStatus)', body: driverStatusSchema, response: { 200: driverStatusResponse } },
  }, async (request) => setDriverStatus(ctx, actorOf(request), request.body));

  app.get('/api/drivers/live', {
    config: { access: ['admin', 'fleetadmin'] },
    schema: { summary: 'Online drivers on the live map (a fleet admin sees its own)', response: { 200: liveDriversResponse } },
  }, async (request) => ({ drivers: await liveDrivers(ctx, actorOf(request)) }));
}
