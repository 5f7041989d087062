import {
  MAX_PROFILE_PHOTO_BYTES,
  PROFILE_PHOTO_SIZE,
  type AccountExport,
  type PasswordChangeRequest,
  type ProfilePhotoRequest,
  type User,
} from '@rideway/contract';
import { fromMinor } from '@rideway/domain';
import { and, asc, desc, eq, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings, chats, outbox, savedAddresses, users, walletEntries, withdraws } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { deleteStoredFileOf, fileUrl, withStoredFile } from '../../providers/storage';
import { hashPassword, verifyPassword } from '../accounts/passwords';
import { announceSessionsEnded, revokeAllSessions, revokeOtherSessions } from '../accounts/sessions';
import { userView } from './view';
import { imageLibrary } from '../../providers/images';

/**
 * Section 3's users/{uid}/profileImage. The storage port keeps one flat spelling of keys
 * (`<folder>/<uuid>.<ext>`, providers/storage.ts), so a photo is `profiles/<uuid>.jpg` and the
 * user row's profile_image names it: each upload gets a new key, so the served file can be
 * cached for good and a replaced photo never shows from a cache.
 */
export const PROFILE_FOLDER = 'profiles';

/** More pixels than any camera makes: a small file that decodes to gigapixels (a decompression bomb) is refused. */
const MAX_INPUT_PIXELS = 50_000_000;
const DATA_URL = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/=]+)$/i;
const ACCEPTED_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp']);

/**
 * Security-critical: the image is judged by its bytes, never by the type the data URL declares:
 * it must decode as a PNG, JPEG or WebP within the limits, and what is stored is a new image
 * drawn from the decoded pixels (a square JPEG, turned upright, without the original's metadata
 * such as the camera's GPS position), so nothing the sender put around the pixels is served back.
 */
async function scaledPhoto(image: string): Promise<Uint8Array> {
  const base64 = DATA_URL.exec(image)?.[1];
  if (!base64) throw new AppError('photo_invalid', 'image');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_PROFILE_PHOTO_BYTES) throw new AppError('photo_too_large', 'image');
  if (bytes.length === 0) throw new AppError('photo_invalid', 'image');
  const sharp = await imageLibrary();
  try {
    const decoder = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const { format } = await decoder.metadata();
    if (!ACCEPTED_FORMATS.has(format)) throw new AppError('photo_invalid', 'image');
    return await decoder.rotate().resize(PROFILE_PHOTO_SIZE, PROFILE_PHOTO_SIZE, { fit: 'cover' }).jpeg({ quality: 82 }).toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('photo_invalid', 'image');
  }
}

/**
 * PUT /api/me/photo: the caller's own photo (there is no route to set another's). Checked and
 * scaled before a byte is stored; the file is removed again when the row's write fails, and the
 * replaced photo's file once the new one is committed.
 */
export async function setProfilePhoto(ctx: AppContext, actor: Actor, { image }: ProfilePhotoRequest): Promise<User> {
  const bytes = await scaledPhoto(image);
  const { before, row } = await withStoredFile(ctx.storage, { folder: PROFILE_FOLDER, bytes, extension: 'jpg' }, (key) =>
    ctx.db.transaction(async (tx) => {
      const current = (await tx.select({ profileImage: users.profileImage }).from(users).where(eq(users.id, actor.uid)).for('update'))[0];
      const updated = (await tx.update(users).set({ profileImage: fileUrl(key) }).where(eq(users.id, actor.uid)).returning())[0];
      if (!current || !updated) throw new AppError('update_failed');
      return { before: current.profileImage, row: updated };
    }),
  );
  await deleteStoredFileOf(ctx.storage, before);
  return userView(ctx.db, row);
}

/** DELETE /api/me/photo: the photo goes, and its file with it. */
export async function removeProfilePhoto(ctx: AppContext, actor: Actor): Promise<User> {
  const { before, row } = await ctx.db.transaction(async (tx) => {
    const current = (await tx.select({ profileImage: users.profileImage }).from(users).where(eq(users.id, actor.uid)).for('update'))[0];
    const updated = (await tx.update(users).set({ profileImage: null }).where(eq(users.id, actor.uid)).returning())[0];
    if (!current || !updated) throw new AppError('update_failed');
    return { before: current.profileImage, row: updated };
  });
  await deleteStoredFileOf(ctx.storage, before);
  return userView(ctx.db, row);
}

/**
 * POST /api/me/password (decisions.md, "Account privacy"). The current password is required
 * whenever the account has one; an account without one (phone or Facebook sign-in) may set a
 * first password without it. Every other session of the account ends, with its sockets; the one
 * that made the change stays signed in. Guessing is bounded by the route's rate limit.
 */
export async function changePassword(ctx: AppContext, actor: Actor, body: PasswordChangeRequest, session: string | null): Promise<void> {
  const stored = (await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, actor.uid)))[0]?.passwordHash ?? null;
  if (stored !== null && !(await verifyPassword(stored, body.currentPassword ?? ''))) throw new AppError('wrong_current_password', 'currentPassword');
  const passwordHash = await hashPassword(body.newPassword);
  await ctx.db.transaction(async (tx) => {
    // The hash read above must still be the one in force: two changes racing both with the old password, one wins.
    const changed = await tx
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, actor.uid), stored === null ? undefined : eq(users.passwordHash, stored)))
      .returning({ id: users.id });
    if (changed.length === 0) throw new AppError('wrong_current_password', 'currentPassword');
    await (session ? revokeOtherSessions(tx, actor.uid, session) : revokeAllSessions(tx, actor.uid));
  });
  await announceSessionsEnded(ctx, session ? { uid: actor.uid, except: session } : { uid: actor.uid });
}

const money = (minor: number | null | undefined): number | null => (minor === null || minor === undefined ? null : fromMinor(minor));

/**
 * GET /api/me/export: the caller's own data as privacy law expects it handed over: the profile,
 * the trips as rider and as driver, the wallet's ledger and withdraws, the chat messages it
 * wrote, its saved places and notifications. Never a secret (password hash, session or push
 * token, card token) and nothing of another user but the name a trip already showed it.
 */
export async function exportAccount(ctx: AppContext, actor: Actor): Promise<AccountExport> {
  const uid = actor.uid;
  const row = (await ctx.db.select().from(users).where(eq(users.id, uid)))[0];
  if (!row) throw new AppError('not_found');
  const { pushToken: _pushToken, ...profile } = await userView(ctx.db, row);
  const trips = await ctx.db
    .select()
    .from(bookings)
    .where(or(eq(bookings.customer, uid), eq(bookings.driver, uid)))
    .orderBy(desc(bookings.bookingDate))
    .limit(10_000);
  const ledger = await ctx.db.select().from(walletEntries).where(eq(walletEntries.uid, uid)).orderBy(asc(walletEntries.at), asc(walletEntries.id));
  const payouts = await ctx.db.select().from(withdraws).where(eq(withdraws.uid, uid)).orderBy(asc(withdraws.date));
  const messages = await ctx.db.select().from(chats).where(eq(chats.from, uid)).orderBy(asc(chats.at)).limit(50_000);
  const places = await ctx.db.select().from(savedAddresses).where(eq(savedAddresses.uid, uid));
  const inbox = await ctx.db
    .select({ payload: outbox.payload, createdAt: outbox.createdAt })
    .from(outbox)
    .where(and(eq(outbox.channel, 'push'), eq(outbox.recipient, uid)))
    .orderBy(asc(outbox.id))
    .limit(10_000);
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    exportedAt: ctx.now(),
    profile,
    trips: trips.map((trip) => {
      const asRider = trip.customer === uid;
      return {
        id: trip.id,
        reference: trip.reference,
        role: asRider ? 'rider' : 'driver',
        status: trip.status,
        carType: trip.carType,
        pickupAddress: trip.pickup.add,
        dropAddress: trip.drop.add,
        tripdate: trip.tripdate,
        bookingDate: trip.bookingDate,
        trip_cost: money(trip.tripCostMinor),
        customer_paid: money(trip.customerPaidMinor),
        driver_share: asRider ? null : money(trip.driverShareMinor),
        payment_mode: trip.paymentMode,
        distance: trip.distance,
        otherParty: asRider ? trip.driverName : trip.customerName,
      };
    }),
    wallet: ledger.map((entry) => ({ type: entry.type, amount: fromMinor(entry.amountMinor), currency: entry.currency, txRef: entry.txRef, bookingId: entry.bookingId, date: entry.at })),
    withdraws: payouts.map((payout) => ({ id: payout.id, amount: fromMinor(payout.amountMinor), date: payout.date, processed: payout.processed })),
    chatMessages: messages.map((message) => ({ bookingId: message.bookingId, message: message.message, date: message.at })),
    savedPlaces: places.map(({ description, lat, lng, count, label, name }) => ({ description, lat, lng, count, label, name })),
    notifications: inbox.map((message) => ({ title: text(message.payload.title), msg: text(message.payload.msg), date: message.createdAt })),
  };
}

/** The file name a download of the own data is saved under. */
export const exportFileName = (now: number): string => `rideway-my-data-${new Date(now).toISOString().slice(0, 10)}.json`;
