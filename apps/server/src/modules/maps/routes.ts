import {
  addressRequestSchema,
  addressResponse,
  autocompleteRequestSchema,
  autocompleteResponse,
  coordsRequestSchema,
  coordsResponse,
  driveTimeRequestSchema,
  driveTimeResponse,
  multiLocTimeRequestSchema,
  routeRequestSchema,
  routeResponse,
} from '@rideway/contract';
import type { AppContext } from '../../context';
import type { RouteApp } from '../../http/routing';
import { autocomplete, getAddress, getCoords, getDriveTime, getMultiLocTime, getRoute } from './service';

/** The section 7 maps calls, at their paths and with their payloads (Bearer), answered by the maps port. */
export function mapsRoutes(app: RouteApp, ctx: AppContext): void {
  app.post('/googleapis-getaddress', {
    config: { access: 'signedIn' },
    schema: { summary: 'Address of {latlng: "lat,lng"}', body: addressRequestSchema, response: { 200: addressResponse } },
  }, (request) => getAddress(ctx, request.body));

  app.post('/googleapis-getdrivetime', {
    config: { access: 'signedIn' },
    schema: { summary: 'Drive distance and time between start and dest', body: driveTimeRequestSchema, response: { 200: driveTimeResponse } },
  }, (request) => getDriveTime(ctx, request.body));

  app.post('/googleapis-getmultiloctime', {
    config: { access: 'signedIn' },
    schema: { summary: 'Drive distance and time through pipe-separated waypoints', body: multiLocTimeRequestSchema, response: { 200: driveTimeResponse } },
  }, (request) => getMultiLocTime(ctx, request.body));

  app.post('/googleapis-autocomplete', {
    config: { access: 'signedIn' },
    schema: { summary: 'Place suggestions for {searchKeyword}', body: autocompleteRequestSchema, response: { 200: autocompleteResponse } },
  }, (request) => autocomplete(ctx, request.body));

  app.post('/googleapis-getcoords', {
    config: { access: 'signedIn' },
    schema: { summary: 'Coordinates and address of a place_id', body: coordsRequestSchema, response: { 200: coordsResponse } },
  }, (request) => getCoords(ctx, request.body));

  app.post('/googleapis-getroute', {
    config: { access: 'signedIn' },
    schema: { summary: 'Route: distance (km), duration (s), polylinePoints', body: routeRequestSchema, response: { 200: routeResponse } },
  }, (request) => getRoute(ctx, request.body));
}
