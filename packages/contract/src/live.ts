/**
 * The WebSocket's messages at /api/ws (docs/realtime.md), one schema per message: what a client
 * sends, and what the server sends back, per topic. The gateway parses client messages with these
 * schemas and types what it sends with them; the web's live layer is typed from them too.
 */
import { parseTopic } from '@rideway/domain';
import { z } from 'zod';
import { offerFieldsSchema } from './api/dispatch';
import { pushPayloadSchema } from './api/outbox';
import { bookingSchema, bookingStatusSchema, chatMessageSchema, trackingEntrySchema } from './booking';
import { errorKeySchema } from './errors';
import { walletHistoryEntrySchema } from './money-records';
import { epochMs, latLng, money, uid } from './primitives';

/** A position in the event log: events are numbered in one gap-free sequence. */
const liveCursorSchema = z.number().int().nonnegative();

/** A topic as a client names it: `booking:<id>`, `tracking:<id>`, `chat:<id>`, `drivers:live`, `user:me`. */
const liveTopicNameSchema = z.string().refine((name) => parseTopic(name, '') !== undefined, { message: 'validation_error' });

// Client to server.

export const subscribeMessageSchema = z.object({
  type: z.literal('subscribe'),
  topic: liveTopicNameSchema,
  /** The cursor of the last event received: what came after it is replayed first. Anything but a cursor subscribes from now. */
  since: liveCursorSchema.optional().catch(undefined),
});

const unsubscribeMessageSchema = z.object({ type: z.literal('unsubscribe'), topic: liveTopicNameSchema });

/** A driver's position, as POST /api/driver/location takes it. */
const locationMessageSchema = z.object({ type: z.literal('location'), ...latLng.shape });

const pingMessageSchema = z.object({ type: z.literal('ping') });

export const liveClientMessageSchema = z.discriminatedUnion('type', [subscribeMessageSchema, unsubscribeMessageSchema, locationMessageSchema, pingMessageSchema]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;
export type SubscribeMessage = z.infer<typeof subscribeMessageSchema>;

// The data of each topic's events.

/** The booking as every follower sees it: the trip OTP and the offers stay out (the rider and admins read them by GET). */
const liveBookingSchema = bookingSchema.extend({
  otp: z.literal(false),
  requestedDrivers: z.record(z.string(), z.never()),
  cancellationCharge: money,
});

/**
 * A tracking entry, as GET /api/bookings/:id/tracking lists them. TRANSITION: the server sends the
 * entry's serial number as its id, where the entity schema says a string; once the two agree
 * this is `trackingEntrySchema` itself.
 */
const trackingPointSchema = trackingEntrySchema.extend({ id: z.union([trackingEntrySchema.shape.id, z.number().int().positive()]) });

/** The driver on the way to the pickup: not a tracking entry (not stored, not replayed). */
const driverApproachSchema = z.object({ status: bookingStatusSchema.extract(['ACCEPTED', 'ARRIVED']), lat: z.number(), lng: z.number(), at: epochMs });

/** A driver on the live map (the drivers:live topic and GET /api/drivers/live). */
export const liveDriverSchema = z.object({
  uid,
  name: z.string(),
  vehicleNumber: z.string().nullable(),
  carType: z.string().nullable(),
  location: latLng,
  at: epochMs,
  busy: z.boolean(),
});
export type LiveDriver = z.infer<typeof liveDriverSchema>;

/** A ledger entry of the user's wallet, as it is written. */
const walletEventSchema = walletHistoryEntrySchema.omit({ id: true, booking_id: true });

// Server to client.

const bookingTopic = z.templateLiteral(['booking:', z.string()]);
const trackingTopic = z.templateLiteral(['tracking:', z.string()]);
const chatTopic = z.templateLiteral(['chat:', z.string()]);
const driversTopic = z.literal('drivers:live');
const userTopic = z.templateLiteral(['user:', z.string()]);

/**
 * An event on a topic, named as the client subscribed to it. An event kept in the log carries
 * its cursor (`seq`); positions and the map's snapshot are not kept, so they carry none and are never replayed.
 */
const logged = <T extends z.ZodType, E extends string, D extends z.ZodType>(topic: T, event: E, data: D) =>
  z.object({ type: z.literal('event'), topic, event: z.literal(event), data, seq: liveCursorSchema });
const unlogged = <T extends z.ZodType, E extends string, D extends z.ZodType>(topic: T, event: E, data: D) =>
  z.object({ type: z.literal('event'), topic, event: z.literal(event), data, seq: z.never().optional() });

export const liveEventMessageSchema = z.discriminatedUnion('event', [
  logged(bookingTopic, 'booking', liveBookingSchema),
  logged(trackingTopic, 'point', trackingPointSchema),
  unlogged(trackingTopic, 'driver', driverApproachSchema),
  logged(chatTopic, 'message', chatMessageSchema),
  unlogged(driversTopic, 'snapshot', z.object({ drivers: z.array(liveDriverSchema) })),
  unlogged(driversTopic, 'position', liveDriverSchema),
  unlogged(driversTopic, 'offline', z.object({ uid })),
  // Every push message, also delivered at once to the user's open app.
  logged(userTopic, 'notice', pushPayloadSchema),
  logged(userTopic, 'wallet', walletEventSchema),
  // An offer to one driver: the live booking with that driver's own leg to the pickup and the offer's timeout.
  logged(userTopic, 'offer', liveBookingSchema.extend(offerFieldsSchema.shape)),
  logged(userTopic, 'offer_withdrawn', z.object({ bookingId: z.string() })),
]);
export type LiveEventMessage = z.infer<typeof liveEventMessageSchema>;
export type LiveEventName = LiveEventMessage['event'];

/** The topic as the client named it, echoed back even when it names no topic. */
const echoedTopic = z.unknown().optional();

/** The subscription holds; `seq` is the newest cursor, to resume from if nothing arrives first. */
const subscribedMessageSchema = z.object({ type: z.literal('subscribed'), topic: z.string(), seq: liveCursorSchema });

/** Always answered, whether or not the topic was followed. */
const unsubscribedMessageSchema = z.object({ type: z.literal('unsubscribed'), topic: echoedTopic });

/**
 * `forbidden` for a topic the caller may not follow (or no longer may, after an offer is
 * withdrawn) or a position from anyone but a driver, `validation_error` for a malformed message.
 */
const liveErrorMessageSchema = z.object({ type: z.literal('error'), code: errorKeySchema, topic: echoedTopic });

const pongMessageSchema = z.object({ type: z.literal('pong') });

export const liveServerMessageSchema = z.discriminatedUnion('type', [
  subscribedMessageSchema,
  unsubscribedMessageSchema,
  liveErrorMessageSchema,
  pongMessageSchema,
  liveEventMessageSchema,
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;
