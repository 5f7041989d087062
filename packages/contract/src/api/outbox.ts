import { MESSAGE_CHANNELS, OUTBOX_STATES, PUSH_SCREENS } from '@rideway/domain';
import { z } from 'zod';
import { epochMs } from '../primitives';

/** The outbox as admins read it: mail, SMS and push messages, sent or waiting to leave. */

export const outboxQuerySchema = z.object({
  /** The channels people receive messages on (live events have their own log). */
  channel: z.enum(MESSAGE_CHANNELS).optional(),
  recipient: z.string().max(254).optional().meta({ description: 'A user id, an email address or a mobile number' }),
  /** Issue 19: the admins' Messages screen narrows the list by what became of each message. */
  state: z.enum(OUTBOX_STATES).optional().meta({ description: 'failed: given up (refused for good or out of attempts); waiting: still being tried; delivered' }),
  search: z.string().trim().max(254).optional().meta({ description: 'Part of the recipient, any case (the Messages screen\'s search)' }),
});
export type OutboxQuery = z.output<typeof outboxQuerySchema>;

export const mailPayloadSchema = z.object({ subject: z.string(), text: z.string(), /** An HTML part (a receipt, issue 18). */ html: z.string().optional() });
export const smsPayloadSchema = z.object({ text: z.string() });
/** Section 7's push message: title, msg, optionally a screen and its params. */
export const pushPayloadSchema = z.object({
  title: z.string(),
  msg: z.string(),
  screen: z.enum(PUSH_SCREENS).optional(),
  params: z.record(z.string(), z.string()).optional(),
  /** Issue 19: the admin's notification this push belongs to (its deliveries are counted). */
  notification: z.string().optional(),
});
export type MailPayload = z.infer<typeof mailPayloadSchema>;
export type SmsPayload = z.infer<typeof smsPayloadSchema>;
export type PushPayload = z.infer<typeof pushPayloadSchema>;

const message = {
  id: z.number().int(),
  recipient: z.string(),
  createdAt: epochMs,
  deliveredAt: epochMs.nullable(),
  /** Issue 19: delivery attempts so far, the last one's error, and when delivery was given up (a failure admins act on). */
  attempts: z.number().int().min(0),
  lastError: z.string().nullable(),
  failedAt: epochMs.nullable(),
  /** What became of it (the domain's outboxState): only a failed message may be sent again. */
  state: z.enum(OUTBOX_STATES),
};
export const outboxMessageSchema = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('mail'), ...message, payload: mailPayloadSchema }),
  z.object({ channel: z.literal('sms'), ...message, payload: smsPayloadSchema }),
  z.object({ channel: z.literal('push'), ...message, payload: pushPayloadSchema }),
]);
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxResponse = z.object({ messages: z.array(outboxMessageSchema) });

/** POST /api/outbox/:id/retry: an outbox message's number. */
export const outboxIdParams = z.object({ id: z.coerce.number({ error: 'not_found' }).int().positive().max(Number.MAX_SAFE_INTEGER) });
export const outboxMessageResponse = z.object({ message: outboxMessageSchema });
