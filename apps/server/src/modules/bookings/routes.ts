import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withSummary } from '../../http/docs';
import { estimateTrip } from './estimate';

export function estimateRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/estimates', withSummary('Fare estimate: route from the maps port, fare from the domain'), async (request) => {
    const { carType: _carType, extras: _extras, ...estimate } = await estimateTrip(ctx, request.body);
    return estimate;
  });
}
