import { estimateRequestSchema, type EstimateRequest } from '@rideway/contract';
import { fareForMinor, fromMinor, insideServiceArea, kmInUnit } from '@rideway/domain';
import { toApiCarType } from '@rideway/server/modules/cartypes/service';
import { DEFAULT_SETTINGS } from '@rideway/server/modules/settings/defaults';
import { offlineMaps } from '@rideway/server/providers/maps/offline';
import { carTypes } from '@rideway/server/db/schema';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { apiWorld, median } from './api-setup';
import { requestsPerSecond } from './http-load';
import { report } from './measure';

/**
 * Estimates (issue 21, point 6): POST /api/estimates through the whole API (session, route
 * table, validation, settings, car type, route from the offline maps port, fare from the domain)
 * against a bare Fastify route doing the same computation with the car type and settings held in
 * memory, over the same keep-alive HTTP load, in the same run. On PostgreSQL when DATABASE_URL
 * is set. Target: at least 0.5x of the bare route.
 */
const world = await apiWorld('estimate');
const [row] = await world.database.db.select().from(carTypes);
if (!row) throw new Error('no car type');
const carType = toApiCarType(row);
const settings = DEFAULT_SETTINGS;
const maps = offlineMaps();

const bare = Fastify({ logger: false });
bare.post('/api/estimates', async (request, reply) => {
  const body: EstimateRequest = estimateRequestSchema.parse(request.body);
  if (!insideServiceArea(body.pickup, settings.serviceArea)) return reply.status(400).send({ error: 'outside_service_area' });
  const route = await maps.route([body.pickup, body.drop]);
  if (!route) return reply.status(400).send({ error: 'no_route_found' });
  const distance = Math.round(kmInUnit(route.distanceKm, settings.convert_to_mile) * 1000) / 1000;
  const fare = fareForMinor(carType, { distance, duration: route.durationSeconds }, {});
  return { estimateFare: fromMinor(fare.grandTotal), totalCost: fromMinor(fare.totalCost), convenience_fees: fromMinor(fare.convenience_fees), grandTotal: fromMinor(fare.grandTotal), distance, duration: route.durationSeconds, approximate: route.approximate };
});
await bare.listen({ port: 0, host: '127.0.0.1' });

const bodies = Array.from({ length: 150 }, (_, i) => JSON.stringify({ pickup: { lat: 51.53 + (i % 50) / 10_000, lng: -0.12, add: 'A' }, drop: { lat: 51.5, lng: -0.08 + (i % 30) / 10_000, add: 'B' }, carType: 'Economy' }));
const load = (port: number, signed: boolean) =>
  requestsPerSecond({ port, path: '/api/estimates', method: 'POST', bodies, concurrency: 16, ms: 1500, ...(signed ? { authorizations: [`Bearer ${world.riderToken}`] } : {}) });
// Interleaved rounds, medians: the machine's drift falls on both alike.
const apiRuns: number[] = [];
const bareRuns: number[] = [];
for (let round = 0; round < 5; round += 1) {
  apiRuns.push(await load(world.port, true));
  bareRuns.push(await load((bare.server.address() as AddressInfo).port, false));
}
export const passed = report(`estimate (${world.engine}): POST /api/estimates through the API vs a bare Fastify route doing the same computation`, median(apiRuns), median(bareRuns), { min: 0.5 });
// A warm estimate issues no query (settings, car type and session from memory, issue 21).
if (!passed) console.log("  note: no query is left in a warm estimate; the rest is the API's hooks (security headers, session, access, CSRF, NUL guard), the request's validation and the answer's schema, which the bare route does not do");
await bare.close();
await world.close();
