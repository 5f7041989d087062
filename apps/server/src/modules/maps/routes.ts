import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withSummary } from '../../http/docs';
import { autocomplete, getAddress, getCoords, getDriveTime, getMultiLocTime, getRoute } from './service';

/** The section 7 maps calls, at their paths and with their payloads, answered by the maps port. */
export function mapsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/googleapis-getaddress', withSummary('Address of {latlng: "lat,lng"}'), (request) => getAddress(ctx, request.body));
  app.post('/googleapis-getdrivetime', withSummary('Drive distance and time between start and dest'), (request) => getDriveTime(ctx, request.body));
  app.post('/googleapis-getmultiloctime', withSummary('Drive distance and time through pipe-separated waypoints'), (request) => getMultiLocTime(ctx, request.body));
  app.post('/googleapis-autocomplete', withSummary('Place suggestions for {searchKeyword}'), (request) => autocomplete(ctx, request.body));
  app.post('/googleapis-getcoords', withSummary('Coordinates of a place_id'), (request) => getCoords(ctx, request.body));
  app.post('/googleapis-getroute', withSummary('Route: distance (km), duration (s), polylinePoints'), (request) => getRoute(ctx, request.body));
}
