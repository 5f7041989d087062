import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { withSummary } from '../../http/docs';
import { liveDrivers, reportLocation, setDriverStatus } from './service';

export function presenceRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/driver/location', withSummary("The driver's position (lat, lng), every few seconds while online"), async (request) => reportLocation(ctx, actorOf(request), request.body));
  app.patch('/api/driver/status', withSummary('Go online or offline (driverActiveStatus)'), async (request) => setDriverStatus(ctx, actorOf(request), request.body));
  app.get('/api/drivers/live', withSummary('Online drivers on the live map (a fleet admin sees its own)'), async (request) => ({ drivers: await liveDrivers(ctx, actorOf(request)) }));
}
