import type { ChatMessageInput } from '@rideway/contract';
import { isChatOpen, isChatParty, type BookingStatus } from '@rideway/domain';
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookings, chats } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { emit } from '../../realtime/events';
import { enqueue } from '../outbox/service';
import { renderFor } from '../messages/render';

type ChatRow = typeof chats.$inferSelect;

const pad = (n: number) => String(n).padStart(2, '0');

/** Section 3 chat message: message, from, type msg, msgDate, msgTime, source, smsId. */
const toChatMessage = (row: ChatRow) => {
  const at = new Date(row.at);
  return {
    smsId: String(row.id),
    message: row.message,
    from: row.from,
    type: 'msg' as const,
    msgDate: `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`,
    msgTime: `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`,
    source: row.source as 'customer' | 'driver',
    createdAt: row.at,
  };
};

/** The booking, if the caller is one of its two chat parties; 404 otherwise (section 3, API.md). */
async function chatBooking(ctx: AppContext, actor: Actor, id: string) {
  const row = (await ctx.db.select({ id: bookings.id, status: bookings.status, customer: bookings.customer, driver: bookings.driver }).from(bookings).where(eq(bookings.id, id)).limit(1))[0];
  if (!row || !isChatParty(actor, { ...row, status: row.status as BookingStatus })) throw new AppError('not_found');
  return row;
}

export async function listChat(ctx: AppContext, actor: Actor, id: string) {
  await chatBooking(ctx, actor, id);
  const rows = await ctx.db.select().from(chats).where(eq(chats.bookingId, id)).orderBy(asc(chats.at), asc(chats.id)).limit(1000);
  return rows.map(toChatMessage);
}

/** A message from one party to the other: stored, live on the chat topic, and pushed to the other party. */
export async function sendChat(ctx: AppContext, actor: Actor, id: string, { message }: ChatMessageInput) {
  const booking = await chatBooking(ctx, actor, id);
  if (!isChatOpen(booking.status as BookingStatus)) throw new AppError('invalid_transition');
  const source = actor.uid === booking.customer ? 'customer' : 'driver';
  const other = source === 'customer' ? booking.driver : booking.customer;
  const now = ctx.now();
  const sent = await ctx.db.transaction(async (tx) => {
    const row = (await tx.insert(chats).values({ bookingId: id, from: actor.uid, source, message, at: now }).returning())[0];
    if (!row) throw new AppError('internal_error');
    const view = toChatMessage(row);
    await emit(tx, `chat:${id}`, 'message', view, now, { uids: [booking.customer, ...(booking.driver ? [booking.driver] : [])], fleetadmin: null, admins: false });
    // The title names the sender, in the receiver's language (issue 19).
    if (other) await enqueue(tx, { channel: 'push', recipient: other, payload: { title: (await renderFor(tx, other))('push_chat_title', { name: actor.user.firstName }), msg: message.slice(0, 120), screen: 'onlineChat', params: { bookingId: id } } }, now);
    return view;
  });
  ctx.live.relay.kick();
  return sent;
}
