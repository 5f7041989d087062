import { fieldOf, isPaymentMode } from '@rideway/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { cardPaymentForm } from '../payments/service';
import { findUser } from '../users/accounts';
import { scopeOf } from './create';
import { acceptingDriver, lockBooking, runStep } from './lifecycle';
import { toApiBooking, type BookingRow } from './view';

export const view = (row: BookingRow, actor: Actor) => toApiBooking(row, actor);

export async function listBookings(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db.select().from(bookings).where(scopeOf(actor)).orderBy(desc(bookings.bookingDate)).limit(500);
  return rows.map((row) => view(row, actor));
}

export async function getBooking(ctx: AppContext, actor: Actor, id: string) {
  return view(await ctx.db.transaction((tx) => lockBooking(tx, actor, id)), actor);
}

/** GET /api/driver/tasks: the NEW bookings that request this driver (section 6). */
export async function driverTasks(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db.select().from(bookings).where(and(scopeOf(actor), eq(bookings.status, 'NEW'))).orderBy(desc(bookings.bookingDate)).limit(100);
  return rows.map((row) => view(row, actor));
}

const step = async (ctx: AppContext, actor: Actor, id: string, action: Parameters<typeof runStep>[1]['action']) =>
  view(await runStep(ctx, { actor, id, action }), actor);

export const acceptBooking = (ctx: AppContext, actor: Actor, id: string) =>
  step(ctx, actor, id, async (tx) => ({ type: 'accept', driver: await acceptingDriver(tx, actor.uid) }));
export const arriveBooking = (ctx: AppContext, actor: Actor, id: string) => step(ctx, actor, id, { type: 'arrive' });
export const startBooking = (ctx: AppContext, actor: Actor, id: string, input: unknown) => step(ctx, actor, id, { type: 'start', otp: fieldOf(input, 'otp') });
export const reachBooking = (ctx: AppContext, actor: Actor, id: string) => step(ctx, actor, id, { type: 'reach' });
export const completeBooking = (ctx: AppContext, actor: Actor, id: string, input: unknown) => step(ctx, actor, id, { type: 'complete', rating: fieldOf(input, 'rating') });
export const cancelBooking = (ctx: AppContext, actor: Actor, id: string, input: unknown) => step(ctx, actor, id, { type: 'cancel', reason: fieldOf(input, 'reason') });

export async function assignDriver(ctx: AppContext, actor: Actor, id: string, input: unknown) {
  const uid = fieldOf(input, 'driver');
  const driver = typeof uid === 'string' && uid.length <= 128 ? await findUser(ctx.db, uid) : undefined;
  if (!driver) throw new AppError('not_found', 'driver');
  return step(ctx, actor, id, { type: 'assign', driver: { uid: driver.id, usertype: driver.usertype, approved: driver.approved, carType: driver.carType } });
}

/**
 * POST /api/bookings/:id/pay. The rider pays by wallet, or by card through the payment provider
 * (answered with the provider's form). The driver closes a cash, wallet or prepaid trip;
 * on a card trip the driver hands over to the rider's payment (PENDING, section 4).
 */
export async function payBooking(ctx: AppContext, actor: Actor, id: string, input: unknown) {
  const mode = fieldOf(input, 'payment_mode');
  if (!isPaymentMode(mode)) throw new AppError('payment_mode_invalid', 'payment_mode');
  // A rider's card payment goes through the provider: the answer is the form to post there.
  if (actor.usertype === 'rider' && mode === 'card') return cardPaymentForm(ctx, actor, id);
  return step(ctx, actor, id, (_tx, booking) => {
    const handsOver = actor.usertype === 'driver' && !booking.prepaid && booking.paymentMode === 'card' && mode === 'card';
    return Promise.resolve(handsOver ? { type: 'awaitPayment' } : { type: 'pay', payment_mode: mode });
  });
}
