/**
 * Security-critical: a rider's saved places (issue 17 point 12). Every query is bound to
 * `uid = actor.uid`, so another rider's place is not found, the same as a missing one. Every
 * write locks the rider's user row first, so concurrent requests are serialised: the limit on how
 * many places a rider keeps, and Home and Work at most once, hold under any interleaving (the
 * unique index on (uid, label) stands behind the second).
 */
import type { EditPlaceRequest, SavedPlace, SavePlaceRequest } from '@rideway/contract';
import {
  MAX_SAVED_PLACES,
  nearestSavedPlace,
  placeNamingOf,
  placeToMakeRoom,
  recordSavedAddress,
  type PlaceNaming,
  type SavedPlaceLabel,
} from '@rideway/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { savedAddresses, users } from '../../db/schema';
import { AppError, unwrap } from '../../http/app-error';
import type { Actor } from '../../http/actor';
import { getSettings } from '../settings/service';
import { isUniqueViolation } from '../../db/unique-violation';

type Row = typeof savedAddresses.$inferSelect;

const own = (uid: string) => eq(savedAddresses.uid, uid);

const toSavedPlace = (row: Row): SavedPlace => ({
  id: row.id,
  description: row.description,
  lat: row.lat,
  lng: row.lng,
  count: row.count,
  label: row.label === 'home' || row.label === 'work' ? row.label : null,
  name: row.name,
});

/** Locks the rider's row for the rest of the transaction and answers the rider's places. */
async function lockedPlaces(tx: Tx, uid: string): Promise<Row[]> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, uid)).for('update');
  return tx.select().from(savedAddresses).where(own(uid));
}

/** Refuses a label another of the rider's places already has. */
function checkLabelFree(places: readonly Row[], label: SavedPlaceLabel | null, except?: number): void {
  if (label !== null && places.some((place) => place.label === label && place.id !== except)) throw new AppError('saved_place_label_taken', 'label');
}

/** The unique index's refusal (PostgreSQL's 23505), raced past the check: the same answer. */
function asLabelTaken(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('saved_place_label_taken', 'label');
  throw error;
}

/**
 * A place's id from the path: a positive whole number, else none (not_found, as a missing place).
 * The path takes any text so that a bad body is refused as such, whatever the id.
 */
function placeIdOf(id: string): number {
  const value = /^[1-9]\d{0,14}$/.test(id) ? Number(id) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw new AppError('not_found');
  return value;
}

/** GET /api/me/places: the rider's places, the most used first (as place search offers them). */
export async function listPlaces(ctx: AppContext, actor: Actor): Promise<{ places: SavedPlace[] }> {
  const rows = await ctx.db.select().from(savedAddresses).where(own(actor.uid)).orderBy(desc(savedAddresses.count), desc(savedAddresses.id));
  return { places: rows.map(toSavedPlace) };
}

/**
 * POST /api/me/places: the rider saves a place. On an unnamed place within the match radius (a
 * drop recorded there) it names that one, keeping its count; saved without a name on a named
 * one, it is that one, unchanged; otherwise it is a new place with count 1. At the limit, the
 * least used unnamed place gives way; when every place is named the save is refused
 * (saved_places_full) and nothing is stored.
 */
export async function savePlace(ctx: AppContext, actor: Actor, request: SavePlaceRequest): Promise<{ place: SavedPlace; created: boolean }> {
  const naming = unwrap(placeNamingOf(request));
  const { convert_to_mile } = await getSettings(ctx.db);
  return ctx.db
    .transaction(async (tx) => {
      const places = await lockedPlaces(tx, actor.uid);
      const near = nearestSavedPlace(places, request, convert_to_mile);
      const unnamed = naming.label === null && naming.name === null;
      // Saved again without a name where a named place is: that place is the answer, unchanged.
      if (near && unnamed && (near.label !== null || near.name !== null)) return { place: toSavedPlace(near), created: false };
      if (near && near.label === null && near.name === null) {
        checkLabelFree(places, naming.label, near.id);
        const [row] = await tx.update(savedAddresses).set({ description: request.description, ...naming }).where(and(own(actor.uid), eq(savedAddresses.id, near.id))).returning();
        if (!row) throw new AppError('not_found');
        return { place: toSavedPlace(row), created: false };
      }
      checkLabelFree(places, naming.label);
      await makeRoom(tx, actor.uid, places);
      const [row] = await tx.insert(savedAddresses).values({ uid: actor.uid, description: request.description, lat: request.lat, lng: request.lng, count: 1, ...naming }).returning();
      if (!row) throw new AppError('internal_error');
      return { place: toSavedPlace(row), created: true };
    })
    .catch(asLabelTaken);
}

/** At the limit, the place that gives way is deleted; with none to give way, saved_places_full. */
async function makeRoom(tx: Tx, uid: string, places: readonly Row[]): Promise<void> {
  if (places.length < MAX_SAVED_PLACES) return;
  const room = placeToMakeRoom(places.map(toSavedPlace));
  if (room === undefined) throw new AppError('saved_places_full');
  await tx.delete(savedAddresses).where(and(own(uid), eq(savedAddresses.id, room)));
}

/** PATCH /api/me/places/:id: the place's label or name replaced (both null: unnamed); the point stays. */
export async function editPlace(ctx: AppContext, actor: Actor, pathId: string, request: EditPlaceRequest): Promise<{ place: SavedPlace }> {
  const id = placeIdOf(pathId);
  const naming: PlaceNaming = unwrap(placeNamingOf(request));
  return ctx.db
    .transaction(async (tx) => {
      const places = await lockedPlaces(tx, actor.uid);
      if (!places.some((place) => place.id === id)) throw new AppError('not_found');
      checkLabelFree(places, naming.label, id);
      const [row] = await tx.update(savedAddresses).set(naming).where(and(own(actor.uid), eq(savedAddresses.id, id))).returning();
      if (!row) throw new AppError('not_found');
      return { place: toSavedPlace(row) };
    })
    .catch(asLabelTaken);
}

/** DELETE /api/me/places/:id: the place is gone; a drop there later starts a new one. */
export async function removePlace(ctx: AppContext, actor: Actor, pathId: string): Promise<void> {
  const id = placeIdOf(pathId);
  const removed = await ctx.db.delete(savedAddresses).where(and(own(actor.uid), eq(savedAddresses.id, id))).returning({ id: savedAddresses.id });
  if (removed.length === 0) throw new AppError('not_found');
}

/**
 * Section 4 REACHED: the drop joins the rider's saved places, or counts once more for the nearest
 * within the match radius. A new one at the limit takes the place of the least used unnamed one;
 * when every place is named, the drop is not kept (the trip itself goes on).
 */
export async function recordDrop(tx: Tx, uid: string, drop: { add: string; lat: number; lng: number }, convertToMile: boolean): Promise<void> {
  const places = await lockedPlaces(tx, uid);
  const next = recordSavedAddress(places, { description: drop.add, lat: drop.lat, lng: drop.lng }, convertToMile);
  const near = places.find((entry, index) => next[index]?.count !== entry.count);
  if (near) {
    await tx.update(savedAddresses).set({ count: near.count + 1 }).where(eq(savedAddresses.id, near.id));
    return;
  }
  if (places.length >= MAX_SAVED_PLACES && placeToMakeRoom(places.map(toSavedPlace)) === undefined) return;
  await makeRoom(tx, uid, places);
  await tx.insert(savedAddresses).values({ uid, description: drop.add, lat: drop.lat, lng: drop.lng, count: 1 });
}
