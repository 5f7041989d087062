import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { withSummary } from '../../http/docs';
import { driverEarningsReport, earningsReport, grossEarningsCards } from './service';

export function reportRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/reports/earnings', withSummary('Earnings by month (section 9)'), async () => ({ rows: await earningsReport(ctx) }));
  app.get('/api/reports/driver-earnings', withSummary('Driver earnings by month and driver'), async (request) => ({ rows: await driverEarningsReport(ctx, actorOf(request)) }));
  app.get('/api/dashboard', withSummary('Gross earnings cards: today, this month, total'), async (request) => ({ earnings: await grossEarningsCards(ctx, actorOf(request)) }));
}
