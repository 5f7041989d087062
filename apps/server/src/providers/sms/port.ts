/**
 * Issue 19: the SMS port. An adapter sends one text to one number and says what became of it;
 * the relay (jobs/sms-relay.ts) decides from that whether to record, retry or give up.
 *
 * - `sent`: the provider accepted the message (its id when it gave one).
 * - `failed`: the provider refused it for good (the number is invalid, unsubscribed, not mobile):
 *   sending again would be refused again, so it is not retried.
 * - `retry`: it may go through later (5xx, a timeout, throttling, an answer that could not be read).
 */
export type SmsOutcome = { outcome: 'sent'; id?: string } | { outcome: 'failed'; error: string } | { outcome: 'retry'; error: string };

export type SmsSender = {
  /** The provider's name, in front of every error it causes. */
  name: string;
  send: (to: string, text: string) => Promise<SmsOutcome>;
};
