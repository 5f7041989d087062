/**
 * Receipts (issue 18): on PAID the rider is mailed an HTML receipt through the outbox, in the
 * step's transaction, with the fare breakdown, the payment method and the operator's company
 * details from the settings; the same receipt (with any refunds since) can be downloaded.
 */
import type { Settings } from '@rideway/contract';
import { currencySymbol, fromMinor, toDateTimeLocal } from '@rideway/domain';
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { bookings, refunds, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import type { BookingRow } from '../dispatch/booking-view';
import { languageOf, renderFor, renderFrom, type Render } from '../messages/render';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import type { StepEffect } from './step';

const escape = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A time on the operator's clock (issue 17), its zone named. */
const whenIn = (timeZone: string) => (ms: number | null): string => (ms === null ? '' : `${toDateTimeLocal(ms, timeZone).replace('T', ' ')} ${timeZone}`);

type RefundLine = { amountMinor: number; currency: string; status: string; createdAt: number };

/** The way the rider paid, as the receipt says it. */
const methodOf = (booking: BookingRow, render: Render): string =>
  booking.paymentMode === 'card' ? `${render('receipt_card')}${booking.gateway ? ` (${booking.gateway})` : ''}` : render(booking.paymentMode === 'wallet' ? 'receipt_wallet' : 'receipt_cash');

/**
 * The receipt of a paid booking: a subject, a plain text and an HTML version, in the reader's
 * language (issue 19) and its writing direction.
 */
export function receiptOf(booking: BookingRow, settings: Settings, render: Render, refundLines: RefundLine[] = []): { subject: string; text: string; html: string } {
  // In the booking's own currency (issue 17), whatever the settings' is now.
  const money = (minor: number) => `${currencySymbol(booking.currency, settings)}${fromMinor(minor).toFixed(2)} ${booking.currency}`;
  const when = whenIn(settings.timezone);
  const rows: [string, string][] = [
    [render('receipt_booking'), booking.reference],
    [render('receipt_date'), when(booking.tripEndTime ?? booking.tripdate)],
    [render('receipt_from'), booking.pickup.add],
    [render('receipt_to'), booking.drop.add],
    [render('receipt_car_type'), booking.carType],
    [render('receipt_trip_cost'), money(booking.tripCostMinor)],
    [render('receipt_convenience_fee'), money(booking.convenienceFeesMinor)],
    ...(booking.discountMinor > 0 ? [[render('receipt_discount'), `-${money(booking.discountMinor)}`] as [string, string]] : []),
    [render('receipt_total_paid'), money(booking.customerPaidMinor)],
    [render('receipt_payment_method'), methodOf(booking, render)],
    ...refundLines.map((refund): [string, string] => [render(refund.status === 'succeeded' ? 'receipt_refund' : 'receipt_refund_pending', { date: when(refund.createdAt) }), `-${money(refund.amountMinor)}`]),
  ];
  const company = [settings.CompanyName, settings.CompanyWebsite, settings.contact_email].filter((part) => part.trim() !== '');
  const subject = render('mail_receipt_subject', { app: settings.appName, reference: booking.reference });
  const text = `${rows.map(([label, value]) => `${label}: ${value}`).join('\n')}\n\n${company.join('\n')}`;
  const html = `<!doctype html><html lang="${escape(render.language)}" dir="${render.dir}"><head><meta charset="utf-8"><title>${escape(subject)}</title></head><body style="font-family:system-ui,sans-serif;color:#1c2733"><h1 style="font-size:1.3rem">${escape(render('receipt_heading', { app: settings.appName }))}</h1><table id="receipt" style="border-collapse:collapse">${rows.map(([label, value]) => `<tr><th style="text-align:start;padding-block:.3rem;padding-inline:0 1rem">${escape(label)}</th><td style="padding:.3rem 0">${escape(value)}</td></tr>`).join('')}</table><p style="color:#5b6670">${company.map(escape).join('<br>')}</p></body></html>`;
  return { subject, text, html };
}

/** PAID: the receipt is mailed to the rider (when the rider has an email), with the step. */
export const receiptMail: StepEffect = async (tx, { booking, plan, columns, settings, languages, now }) => {
  if (plan.to !== 'PAID') return undefined;
  const rider = (await tx.select({ email: users.email }).from(users).where(eq(users.id, booking.customer)).limit(1))[0];
  if (!rider?.email) return undefined;
  await enqueue(tx, { channel: 'mail', recipient: rider.email, payload: receiptOf({ ...booking, ...columns }, settings, renderFrom(languages, await languageOf(tx, booking.customer))) }, now);
  return undefined;
};

/** GET /api/bookings/:id/receipt: the rider's own paid booking, or any for an admin; the same receipt, with refunds since. */
export async function bookingReceipt(ctx: AppContext, actor: Actor, bookingId: string): Promise<string> {
  const db: Db | Tx = ctx.db;
  const booking = (await db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1))[0];
  const visible = booking && (actor.usertype === 'admin' || booking.customer === actor.uid);
  if (!booking || !visible || (booking.status !== 'PAID' && booking.status !== 'COMPLETE')) throw new AppError('not_found');
  const lines = await db.select().from(refunds).where(eq(refunds.bookingId, bookingId)).orderBy(asc(refunds.id));
  // In the reader's language: the rider's, or the admin's who opens it.
  return receiptOf(booking, await getSettings(db), await renderFor(db, actor.uid), lines.filter((line) => line.status !== 'failed')).html;
}
