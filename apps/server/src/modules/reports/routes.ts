import { dashboardResponse, driverEarningsReportResponse, earningsReportResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, type RouteApp } from '../../http/routing';
import { driverEarningsReport, earningsReport, grossEarningsCards } from './service';

export function reportRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/reports/earnings', {
    config: { access: ADMIN },
    schema: { summary: 'Earnings by month (section 9)', response: { 200: earningsReportResponse } },
  }, async () => ({ rows: await earningsReport(ctx) }));

  app.get('/api/reports/driver-earnings', {
    config: { access: ['admin', 'fleetadmin', 'driver'] },
    schema: { summary: 'Driver earnings by month and driver; a fleet admin sees its drivers, a driver its own', response: { 200: driverEarningsReportResponse } },
  }, async (request) => ({ rows: await driverEarningsReport(ctx, actorOf(request)) }));

  app.get('/api/dashboard', {
    config: { access: ['admin', 'fleetadmin'] },
    schema: { summary: 'Gross earnings cards: today, this month, total', response: { 200: dashboardResponse } },
  }, async (request) => ({ earnings: await grossEarningsCards(ctx, actorOf(request)) }));
}
