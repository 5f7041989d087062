/**
 * Issue 19: a message people receive (mail, SMS, push) as admins follow it. It is delivered, or
 * waiting (still being tried), or failed: given up, either refused for good (failedAt) or out of
 * attempts. Only a failed message may be sent again, by an admin; it then waits once more.
 */
export const OUTBOX_STATES = ['waiting', 'delivered', 'failed'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** The channels a message reaches people on (live events are not messages). */
export const MESSAGE_CHANNELS = ['mail', 'sms', 'push'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** The relays' attempts per message (mail, SMS and push relays each stop after this many). */
export const MAX_DELIVERY_ATTEMPTS = 6;

export type DeliveryRecord = { deliveredAt: number | null; failedAt: number | null; attempts: number };

export function outboxState(message: DeliveryRecord, maxAttempts = MAX_DELIVERY_ATTEMPTS): OutboxState {
  if (message.deliveredAt !== null) return 'delivered';
  // The mail and push relays stop at their last attempt without marking it: that is given up too.
  if (message.failedAt !== null || message.attempts >= maxAttempts) return 'failed';
  return 'waiting';
}
