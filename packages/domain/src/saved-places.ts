import { distanceInUnit, type LatLng } from './geo';
import { fail, ok, type Result } from './result';
import { SAVED_ADDRESS_MATCH_RADIUS } from './spec-constants';

/**
 * Issue 17 point 12: a rider's saved places. Section 3's savedAddresses (description, lat, lng,
 * count) are recorded at each drop; the rider may also save a place, name it, or give it one of
 * two labels, Home and Work, each at most once per rider.
 */
export const SAVED_PLACE_LABELS = ['home', 'work'] as const;
export type SavedPlaceLabel = (typeof SAVED_PLACE_LABELS)[number];

/** How many places one rider keeps: the drop recorder and the rider's own saves both stop here. */
export const MAX_SAVED_PLACES = 50;
/** A place's own name ("Gym", "Mum's"), in characters after trimming. */
export const MAX_PLACE_NAME_LENGTH = 40;
/** A place's address text, as bookings carry it. */
export const MAX_PLACE_DESCRIPTION_LENGTH = 300;

const isLabel = (value: string): value is SavedPlaceLabel => (SAVED_PLACE_LABELS as readonly string[]).includes(value);
// Control characters would break the one-line lists the name is shown in.
const CONTROL = /\p{Cc}/u;

/** What a place is called: a label, or a name of the rider's own, or neither. */
export type PlaceNaming = { label: SavedPlaceLabel | null; name: string | null };

/**
 * The naming a request asks for. A name is trimmed and must be 1 to 40 characters without
 * control characters (proper_place_name). A name that reads "Home" or "Work" (any case) is that
 * label, so a second Home cannot come in by name. A label and a different name together are
 * refused: which one the rider meant is not known.
 */
export function placeNamingOf(input: { label?: SavedPlaceLabel | null; name?: string | null }): Result<PlaceNaming> {
  const raw = input.name ?? null;
  const name = raw === null ? null : raw.trim();
  if (name !== null && (name.length === 0 || name.length > MAX_PLACE_NAME_LENGTH || CONTROL.test(name))) return fail('proper_place_name', 'name');
  const named = name === null ? null : name.toLowerCase();
  const label = input.label ?? (named !== null && isLabel(named) ? named : null);
  if (label !== null) return named === null || named === label ? ok({ label, name: null }) : fail('proper_place_name', 'name');
  return ok({ label: null, name });
}

/** The address text of a saved place: 1 to 300 characters with something in them, no control characters. */
export function placeDescriptionOf(description: string): Result<string> {
  const trimmed = description.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_PLACE_DESCRIPTION_LENGTH || CONTROL.test(trimmed)) return fail('select_proper', 'description');
  return ok(trimmed);
}

type KeptPlace = { id: number; count: number; label: SavedPlaceLabel | null; name: string | null };

/**
 * When a rider keeps MAX_SAVED_PLACES, the place that gives way to a new one: the least used of
 * those the rider never named (drops recorded on their own), the oldest first among equals.
 * Named and labelled places are the rider's choice and never give way; undefined when all are.
 */
export function placeToMakeRoom(places: readonly KeptPlace[]): number | undefined {
  let chosen: KeptPlace | undefined;
  for (const place of places) {
    if (place.label !== null || place.name !== null) continue;
    if (!chosen || place.count < chosen.count || (place.count === chosen.count && place.id < chosen.id)) chosen = place;
  }
  return chosen?.id;
}

/**
 * The saved place a point falls on: the nearest within section 9's match radius (0.1 km, or miles
 * when convert_to_mile), as the drop recorder matches it; undefined when none is that near.
 */
export function nearestSavedPlace<T extends LatLng>(saved: readonly T[], point: LatLng, convertToMile: boolean): T | undefined {
  let nearest: T | undefined;
  let nearestDistance = Infinity;
  for (const entry of saved) {
    const distance = distanceInUnit(entry, point, convertToMile);
    if (distance <= SAVED_ADDRESS_MATCH_RADIUS && distance < nearestDistance) {
      nearest = entry;
      nearestDistance = distance;
    }
  }
  return nearest;
}
