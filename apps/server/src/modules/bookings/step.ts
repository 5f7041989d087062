import type { Settings } from '@rideway/contract';
import {
  canViewBooking,
  isAuditedActor,
  type AuditAction,
  offerRefusal,
  planTransition,
  type Actor as DomainActor,
  type BookingAction,
  type BookingFacts,
  type BookingStatus,
  type PaymentMode,
  type TransitionPlan,
  type UserType,
} from '@rideway/domain';
import { and, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { bookings, users } from '../../db/schema';
import { AppError, unwrap } from '../../http/app-error';
import { announcementRows } from '../dispatch/announce';
import type { BookingRow } from '../dispatch/booking-view';
import { languageOf, renderFrom, type LanguageFiles } from '../messages/render';
import { languageMap } from '../languages/service';
import { messageRows, writeOutbox } from '../outbox/service';
import type { OutboxRow } from '../../realtime/events';
import { syncDriver } from '../presence/service';
import { getSettings } from '../settings/service';
import { isUniqueViolation } from '../../db/unique-violation';

/**
 * The frame every section 4 step runs in: one transaction that locks the booking, asks the domain
 * for the step's plan from the booking's current status, runs the step's effects, and writes the
 * booking guarded by that status, with the driver's queue flag, the notices and the live
 * announcement; or writes nothing (ARCHITECTURE rule 2).
 */

/** The server itself, acting on a timer (a booking nobody took is cancelled). */
export const SYSTEM = 'system' as const;
type StepActor = { uid: string; usertype: UserType; requestId?: string } | typeof SYSTEM;

/** The booking columns a step writes. */
export type BookingColumns = Partial<typeof bookings.$inferInsert>;

/** What a step reads that changes rarely: the settings, and the language files its notices are written from. */
type StepReads = { settings: Settings; languages: LanguageFiles };

/** What a step changes, as its effects see it: the booking as locked, the plan, the columns so far. */
export type StepChange = StepReads & {
  booking: BookingRow;
  plan: TransitionPlan;
  columns: BookingColumns;
  now: number;
  /** The languages the booking's rider and driver chose (null: the default), read with the lock: their notices need no read of their own. */
  partyLanguages: ReadonlyMap<string, string | null>;
};

/** A named effect of a step: its own writes in the step's transaction, and the booking columns it adds. */
export type StepEffect = (tx: Tx, change: StepChange) => Promise<BookingColumns | undefined>;

type StepInput = {
  actor: StepActor;
  bookingId: string;
  /** The step, or a function of the locked booking that decides it (accept reads the driver). */
  action: BookingAction | ((tx: Tx, booking: BookingRow) => BookingAction | Promise<BookingAction>);
  effects?: readonly StepEffect[];
  /** Work after the booking is written and announced (a delivery paid ahead starts its search). */
  afterWrite?: (tx: Tx, updated: BookingRow, change: StepChange) => Promise<BookingRow>;
};

/** Runs a step in a transaction of its own; after it commits, the driver's live entry and the events follow. */
export async function commitStep(ctx: AppContext, input: StepInput): Promise<BookingRow> {
  // Read before the transaction opens, from the process's cache: a read inside a transaction goes
  // to the database and is parsed again (db/read-cache.ts), a query and a validation per step, and
  // the language files are about 100 KB each (every step with a notice read two).
  const reads: StepReads = { settings: await getSettings(ctx.db), languages: await languageMap(ctx.db) };
  const { updated, change } = await ctx.db.transaction((tx) => stepIn(ctx, tx, input, reads));
  // The live index holds the driver's queue flag, the one thing of the driver a step changes.
  await afterStep(ctx, updated, change.plan.driverQueue !== undefined);
  return updated;
}

/**
 * One step inside the caller's transaction (a payment's confirmation records itself with it), with
 * the settings read before it opened, or read in it.
 */
export async function runStep(ctx: AppContext, tx: Tx, input: StepInput, known?: StepReads): Promise<BookingRow> {
  return (await stepIn(ctx, tx, input, known)).updated;
}

/** runStep, with the change it made. */
async function stepIn(ctx: AppContext, tx: Tx, { actor, bookingId, action, effects = [], afterWrite }: StepInput, known?: StepReads): Promise<{ updated: BookingRow; change: StepChange }> {
  const { settings, languages } = known ?? { settings: await getSettings(tx), languages: await languageMap(tx) };
  const now = ctx.now();
  const { booking, partyLanguages } = await lockForStep(tx, actor, bookingId);
  const step = typeof action === 'function' ? await action(tx, booking) : action;
  const plan = unwrap(planTransition(factsOf(booking), domainActor(actor), step, { at: now, autoDispatch: settings.autoDispatch }));
  const change: StepChange = { booking, plan, columns: columnsOf(plan, booking, now), settings, languages, now, partyLanguages };
  for (const effect of effects) Object.assign(change.columns, await effect(tx, change));
  await setDriverQueue(tx, change);
  const updated = await writeGuarded(tx, change);
  await auditStaffStep(tx, actor, step, change, updated);
  // The notices and the live announcement in one statement: each row a round trip of its own
  // held the booking's lock ten round trips on an accept offered to eight drivers.
  await writeOutbox(tx, [...(await noticeRows(tx, change)), ...(await announcementRows(tx, booking, updated, now, settings, languages))]);
  return { updated: afterWrite ? await afterWrite(tx, updated, change) : updated, change };
}

/** The steps an admin takes on a booking (section 6: cancel, assign a driver), as the audit log names them. */
const STAFF_STEPS: Partial<Record<BookingAction['type'], AuditAction>> = { cancel: 'booking.cancel', assign: 'booking.assign' };

/**
 * Issue 23 point 8: an admin's step goes to the audit log with the booking's columns it changed
 * (status, reason, who cancelled, the driver asked), in the step's transaction.
 */
async function auditStaffStep(tx: Tx, actor: StepActor, step: BookingAction, change: StepChange, updated: BookingRow): Promise<void> {
  const action = STAFF_STEPS[step.type];
  if (actor === SYSTEM || !action || !isAuditedActor(actor.usertype)) return;
  // A plan leaves the columns it does not set undefined: only those it sets are the change.
  const fields = Object.entries(change.columns).filter(([field, value]: [string, unknown]) => value !== undefined && field !== 'updatedAt').map(([field]) => field as keyof BookingRow);
  const pick = (row: BookingRow) => Object.fromEntries(fields.map((field) => [field, row[field]]));
  await recordAudit(tx, { actor, action, entityId: updated.id, before: pick(change.booking), after: pick(updated), at: change.now });
}

/**
 * After a step commits: the driver's entry in the live index follows its queue flag (when the step
 * may have changed it: `driverChanged`), and events leave.
 */
export async function afterStep(ctx: AppContext, updated: BookingRow, driverChanged = true): Promise<void> {
  if (updated.driver && driverChanged) await syncDriver(ctx, updated.driver);
  // Every step wrote the booking's live view: the relay need not look for waiting events first.
  ctx.live.relay.kick(true);
}

/** The booking, locked for this transaction, or 404 when missing or not the caller's to see. */
export async function lockBooking(tx: Tx, actor: StepActor, id: string): Promise<BookingRow> {
  return visibleTo(actor, (await tx.select().from(bookings).where(eq(bookings.id, id)).for('update'))[0]);
}

/** The chosen language of the user a booking column names, read in the booking's own query. */
const languageOfColumn = (column: typeof bookings.customer | typeof bookings.driver) => sql<string | null>`(select ${users.language} from ${users} where ${users.id} = ${column})`;

/** lockBooking for a step: with its rider's and driver's languages, which its notices are written in, in the same round trip. */
async function lockForStep(tx: Tx, actor: StepActor, id: string): Promise<{ booking: BookingRow; partyLanguages: Map<string, string | null> }> {
  const found = (await tx.select({ booking: bookings, customerLanguage: languageOfColumn(bookings.customer), driverLanguage: languageOfColumn(bookings.driver) }).from(bookings).where(eq(bookings.id, id)).for('update'))[0];
  const booking = visibleTo(actor, found?.booking);
  const partyLanguages = new Map([[booking.customer, found?.customerLanguage ?? null]]);
  if (booking.driver) partyLanguages.set(booking.driver, found?.driverLanguage ?? null);
  return { booking, partyLanguages };
}

function visibleTo(actor: StepActor, row: BookingRow | undefined): BookingRow {
  const visible = row && (actor === SYSTEM || canViewBooking({ uid: actor.uid, usertype: actor.usertype }, { ...row, status: row.status as BookingStatus }));
  if (!row || !visible) throw new AppError('not_found');
  return row;
}

/** How long this process remembers a booking it saw taken, and how many it remembers at most. */
const TAKEN_KEPT_MS = 60_000;
const TAKEN_KEPT = 5_000;

/**
 * Issue 21 point 1: the bookings this process saw accepted lately, as the accept left them. A
 * booking once accepted never offers itself again (section 4: no step leads from ACCEPTED back to
 * NEW, and its offers are withdrawn for good), so a later accept of it is refused from what is kept
 * with the key the locked step would give, without a transaction (the race's losers, a retry). Kept
 * for a minute, a few thousand at most: the facts a refusal reads, not the row.
 */
export const takenOffers = (() => {
  const kept = new Map<string, { facts: BookingFacts; at: number }>();
  return {
    remember(row: BookingRow, now: number): void {
      kept.delete(row.id);
      kept.set(row.id, { facts: factsOf(row), at: now });
      // Oldest first out: a Map keeps insertion order.
      for (const [id, entry] of kept) {
        if (kept.size <= TAKEN_KEPT && entry.at > now - TAKEN_KEPT_MS) break;
        kept.delete(id);
      }
    },
    get(id: string, now: number): BookingFacts | undefined {
      const entry = kept.get(id);
      return entry && entry.at > now - TAKEN_KEPT_MS ? entry.facts : undefined;
    },
  };
})();

/**
 * Refuses an accept from a booking this process saw taken (takenOffers), as the locked step would
 * (offerRefusal: its offers were withdrawn). Passing promises nothing: the locked step decides.
 */
export function refuseTakenOffer(actor: StepActor, facts: BookingFacts | undefined): void {
  if (facts && actor !== SYSTEM) unwrap(offerRefusal(facts, domainActor(actor)));
}

const domainActor = (actor: StepActor): DomainActor => (actor === SYSTEM ? { usertype: 'system' } : { usertype: actor.usertype, uid: actor.uid });

/** The booking fields section 4's state machine reads. */
const factsOf = (row: BookingRow): BookingFacts => ({
  status: row.status as BookingStatus,
  customer: row.customer,
  driver: row.driver,
  requestedDrivers: row.requestedDrivers,
  carType: row.carType,
  prepaid: row.prepaid,
  payment_mode: row.paymentMode as PaymentMode,
  otp: row.otp ?? false,
  startTime: row.tripStartTime,
  photos: row.delivery ? { pickup_image: row.pickupImage, deliver_image: row.deliverImage } : null,
});

/** The plan's fields, as the booking's columns. */
function columnsOf({ to, set, requestedDrivers }: TransitionPlan, booking: BookingRow, now: number): BookingColumns {
  const columns: BookingColumns = {
    status: to,
    updatedAt: now,
    driverArriveTime: set.driver_arrive_time,
    tripStartTime: set.trip_start_time,
    tripEndTime: set.trip_end_time,
    totalTripTime: set.total_trip_time,
    prepaid: set.prepaid,
    paymentMode: set.payment_mode,
    rating: set.rating,
    reason: set.reason,
    cancelledBy: set.cancelledBy,
  };
  if (set.driver !== undefined) {
    Object.assign(columns, { driver: set.driver, driverName: set.driver_name, driverImage: set.driver_image, driverContact: set.driver_contact, driverToken: set.driver_token, vehicleNumber: set.vehicle_number, driverRating: set.driverRating, fleetadmin: set.fleetadmin, acceptedAt: now });
  }
  if (requestedDrivers && 'clear' in requestedDrivers) columns.requestedDrivers = {};
  if (requestedDrivers && 'add' in requestedDrivers) columns.requestedDrivers = { ...booking.requestedDrivers, [requestedDrivers.add]: true };
  return columns;
}

/** The trip's driver: the one accepting now, or the booking's. */
const driverOf = ({ plan, booking }: StepChange): string | null => plan.set.driver ?? booking.driver;

/** Section 4: the driver is in queue (busy) from accept until the trip is paid, handed over or cancelled. */
async function setDriverQueue(tx: Tx, change: StepChange): Promise<void> {
  const driver = driverOf(change);
  if (change.plan.driverQueue !== undefined && driver) await tx.update(users).set({ queue: change.plan.driverQueue }).where(eq(users.id, driver));
}

/** The write, guarded by the status the plan was made from: a concurrent step that won makes this one invalid_transition. */
async function writeGuarded(tx: Tx, { booking, plan, columns }: StepChange): Promise<BookingRow> {
  const written = await tx
    .update(bookings)
    .set(columns)
    .where(and(eq(bookings.id, booking.id), eq(bookings.status, plan.from)))
    .returning()
    .catch((error: unknown) => {
      // The database holds a driver to one active trip (bookings_one_active_trip_per_driver).
      if (isUniqueViolation(error)) throw new AppError('driver_busy');
      throw error;
    });
  if (!written[0]) throw new AppError('invalid_transition');
  return written[0];
}

/** The plan's push notices, to the rider or the trip's driver, each in its recipient's language (issue 19), as outbox rows. */
async function noticeRows(tx: Tx, change: StepChange): Promise<OutboxRow[]> {
  const { booking, plan, settings, now } = change;
  const rows: OutboxRow[] = [];
  for (const notice of plan.notices) {
    const recipient = notice.to === 'customer' ? booking.customer : driverOf(change);
    if (!recipient) continue;
    const render = renderFrom(change.languages, await partyLanguage(tx, change, recipient));
    rows.push(...messageRows({ channel: 'push', recipient, payload: { title: settings.appName, msg: render(notice.key), screen: notice.screen, params: { bookingId: booking.id } } }, now));
  }
  return [...rows, ...(await parcelRecipientRows(tx, change))];
}

/**
 * Issue 19: a parcel's recipient has no account, only the phone number the sender gave: it hears
 * by SMS when the parcel leaves the pickup and when it arrives, in the sender's language.
 */
/** A notice's recipient's language: read with the lock for the booking's rider and driver, else now (an accepting driver). */
const partyLanguage = (tx: Tx, { partyLanguages }: StepChange, uid: string): Promise<string | null> =>
  partyLanguages.has(uid) ? Promise.resolve(partyLanguages.get(uid) ?? null) : languageOf(tx, uid);

async function parcelRecipientRows(tx: Tx, change: StepChange): Promise<OutboxRow[]> {
  const { booking, plan, settings, now } = change;
  if (plan.to !== 'STARTED' && plan.to !== 'REACHED') return [];
  const phone = booking.delivery?.deliveryPersonPhone;
  if (typeof phone !== 'string' || phone.trim() === '') return [];
  const render = renderFrom(change.languages, await partyLanguage(tx, change, booking.customer));
  const values = { app: settings.appName, sender: booking.customerName, driver: booking.driverName ?? '' };
  const text = plan.to === 'STARTED' ? render('sms_parcel_on_way', values) : render('sms_parcel_delivered', values);
  return messageRows({ channel: 'sms', recipient: phone.trim(), payload: { text } }, now);
}
