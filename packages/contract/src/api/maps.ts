import { isLatLng, type ErrorKey, type LatLng } from '@rideway/domain';
import { z } from 'zod';
import { routeDetailsSchema } from '../catalogue';
import { latLng } from '../primitives';

/** Section 7's maps calls (POST /googleapis-*), with their payloads, answered by the maps port. */

const NOT_A_PLACE = 'place_to_coords_error';
const MAX_POINT_TEXT = 60;
const MAX_WAYPOINTS = 25;

/** "lat,lng" as section 7 sends it, or undefined. */
function pointOfText(text: string): LatLng | undefined {
  if (text.length > MAX_POINT_TEXT) return undefined;
  const [lat, lng] = text.split(',').map((part) => Number(part.trim()));
  const point = { lat, lng };
  return isLatLng(point) ? point : undefined;
}

/**
 * A field's place key (422) for a missing value or one that locates nothing; a value of the wrong
 * JSON type is a malformed request and answers validation_error (400) like any other.
 */
const placeError = (key: ErrorKey) => (issue: { code?: string; input?: unknown }) =>
  issue.input !== undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union') ? undefined : key;

const notAPlace = (ctx: z.RefinementCtx, input: unknown): never => {
  ctx.issues.push({ code: 'custom', message: NOT_A_PLACE, input });
  return z.NEVER;
};

/**
 * A point: "lat,lng" text or {lat, lng}. The options carry no checks of their own, so a missing
 * point, one out of range or unreadable text answers place_to_coords_error on the field.
 */
const mapPointSchema = z
  .union([z.object({ lat: z.number(), lng: z.number() }), z.string()], { error: placeError(NOT_A_PLACE) })
  .transform((value, ctx): LatLng => {
    const point = typeof value === 'string' ? pointOfText(value) : isLatLng(value) ? { lat: value.lat, lng: value.lng } : undefined;
    return point ?? notAPlace(ctx, value);
  })
  .meta({ description: '"lat,lng", or {lat, lng}', example: '51.5081,-0.0759' });

/** Pipe-separated "lat,lng" points, at most 25; none when absent or empty. */
const waypointsSchema = z
  .string({ error: placeError(NOT_A_PLACE) })
  .max(5000)
  .optional()
  .transform((text, ctx): LatLng[] => {
    if (text === undefined || text === '') return [];
    const parts = text.split('|');
    const points = parts.map(pointOfText).filter((point) => point !== undefined);
    return parts.length <= MAX_WAYPOINTS && points.length === parts.length ? points : notAPlace(ctx, text);
  })
  .meta({ description: 'Pipe-separated "lat,lng" points, at most 25', example: '51.52,-0.1|51.515,-0.09' });

export const addressRequestSchema = z.object({ latlng: mapPointSchema });
export const driveTimeRequestSchema = z.object({ start: mapPointSchema, dest: mapPointSchema });
// Shape order is check order: start, then the waypoints, then dest.
export const multiLocTimeRequestSchema = z.object({ start: mapPointSchema, waypoints: waypointsSchema, dest: mapPointSchema });
const placeSearchText = z.string({ error: placeError('google_places_error') }).max(200);
/**
 * A place search session (Google's Places session tokens: one search's suggestions and the
 * chosen place's lookup billed as one): URL- and filename-safe base64 of at most 36 characters,
 * a version 4 UUID as the web makes it. Optional; anything else is a malformed request.
 */
const sessionTokenSchema = z
  .string()
  .regex(/^[\w-]{8,36}$/)
  .optional()
  .meta({ description: 'The place search session this call belongs to (a UUID): the same for a search and its chosen place', example: '3519edfe-0f75-4a30-bfe4-7cbd89340b2c' });
export const autocompleteRequestSchema = z.object({ searchKeyword: placeSearchText, sessiontoken: sessionTokenSchema });
export const coordsRequestSchema = z.object({ place_id: placeSearchText.min(1), sessiontoken: sessionTokenSchema });
export const routeRequestSchema = driveTimeRequestSchema;

export type AddressRequest = z.output<typeof addressRequestSchema>;
export type DriveTimeRequest = z.output<typeof driveTimeRequestSchema>;
export type MultiLocTimeRequest = z.output<typeof multiLocTimeRequestSchema>;
export type AutocompleteRequest = z.output<typeof autocompleteRequestSchema>;
export type CoordsRequest = z.output<typeof coordsRequestSchema>;

export const placeSuggestionSchema = z.object({ place_id: z.string(), description: z.string() });
export type PlaceSuggestion = z.infer<typeof placeSuggestionSchema>;

export const addressResponse = z.object({ address: z.string() });
export const driveTimeResponse = z.object({
  distance_in_km: z.number().nonnegative(),
  time_in_secs: z.number().nonnegative(),
});
export const autocompleteResponse = z.object({ searchResults: z.array(placeSuggestionSchema) });
export const coordsResponse = z.object({ coords: latLng, address: z.string() });
export const routeResponse = routeDetailsSchema.extend({
  approximate: z.boolean().meta({ description: 'Estimated without a road network (the offline maps adapter)' }),
});
