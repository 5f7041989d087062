import { MAX_PLACE_DESCRIPTION_LENGTH, MAX_PLACE_NAME_LENGTH, placeDescriptionOf, SAVED_PLACE_LABELS } from '@rideway/domain';
import { z } from 'zod';
import { checkedBy } from '../http';

/**
 * Issue 17 point 12: the rider's saved places, GET/POST /api/me/places and PATCH/DELETE
 * /api/me/places/:id. Section 3's savedAddresses (description, lat, lng, count) with the id the
 * rider edits them by and what the rider calls them: a label (Home, Work; each at most once) or a
 * name of their own. Place search offers them first, the most used first.
 */

const labelSchema = z.enum(SAVED_PLACE_LABELS, { error: 'proper_place_name' });

export const savedPlaceSchema = z.object({
  id: z.number().int().min(1),
  description: z.string(),
  lat: z.number(),
  lng: z.number(),
  /** How many drops it was (a place the rider saved counts as one). */
  count: z.number().int().min(1),
  label: labelSchema.nullable(),
  name: z.string().nullable(),
});
export type SavedPlace = z.output<typeof savedPlaceSchema>;

export const savedPlacesResponse = z.object({ places: z.array(savedPlaceSchema) });
export const savedPlaceResponse = z.object({ place: savedPlaceSchema });

const nameKey = { error: 'proper_place_name' } as const;
/**
 * A name the rider typed: its shape is checked here (a name reading Home or Work is that label,
 * decided with the label by the domain's placeNamingOf in the service); null clears it.
 */
const nameSchema = z.string(nameKey).max(MAX_PLACE_NAME_LENGTH * 4, nameKey).nullable();

const coordinateKey = { error: 'select_proper' } as const;

/** POST /api/me/places: a place chosen in place search, with a label or name if the rider gave one. */
export const savePlaceRequestSchema = z.strictObject(
  {
    description: checkedBy(z.string(coordinateKey).max(MAX_PLACE_DESCRIPTION_LENGTH * 2, coordinateKey), placeDescriptionOf),
    lat: z.number(coordinateKey).min(-90, coordinateKey).max(90, coordinateKey),
    lng: z.number(coordinateKey).min(-180, coordinateKey).max(180, coordinateKey),
    label: labelSchema.nullable().optional(),
    name: nameSchema.optional(),
  },
  // A count, an id or an owner is the server's to set.
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'field_not_editable' : 'select_proper') },
);
export type SavePlaceRequest = z.output<typeof savePlaceRequestSchema>;

/** PATCH /api/me/places/:id: a new label or name (null: none); the point itself stays. */
export const editPlaceRequestSchema = z
  .strictObject(
    { label: labelSchema.nullable().optional(), name: nameSchema.optional() },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'field_not_editable' : 'update_failed') },
  )
  .refine((body) => body.label !== undefined || body.name !== undefined, { error: 'update_failed' });
export type EditPlaceRequest = z.output<typeof editPlaceRequestSchema>;
