import { errorBody, type OutboxMessage } from '@rideway/contract';
import { MAX_DELIVERY_ATTEMPTS } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/db/schema';
import { MAX_MAIL_ATTEMPTS, relayMail } from '../../src/jobs/mail-relay';
import { MAX_PUSH_ATTEMPTS } from '../../src/jobs/push-relay';
import { MAX_SMS_ATTEMPTS, relaySms } from '../../src/jobs/sms-relay';
import { enqueue } from '../../src/modules/outbox/service';
import type { UserRow } from '../../src/modules/users/accounts';
import type { MailTransport } from '../../src/providers/mail';
import { smsSenderFrom } from '../../src/providers/sms';
import type { SmsSender } from '../../src/providers/sms/port';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startTwilioStandIn, type TwilioStandIn } from '../stand-ins/twilio';

/**
 * Issue 19, point 1: a delivery failure is visible to admins. GET /api/outbox filters by state in
 * SQL; POST /api/outbox/:id/retry sends a failed message again, and the relay really takes it up.
 * Only admins read or retry; only a failed message is retried; a flood is refused with 429.
 */

let numbers = 0;
/** A number of this run only (the stand-in scripts answers per number). */
const newNumber = (): string => {
  numbers += 1;
  return `+4477119${String(Date.now()).slice(-4)}${String(numbers).padStart(2, '0')}`;
};

describe.each(ENGINES)('the admins\' Messages screen over the outbox on %s (issue 19)', (engine) => {
  let t: TestApp;
  let twilio: TwilioStandIn;
  let sender: SmsSender;
  let admin: UserRow;

  const rowOf = async (id: number) => (await t.db.select().from(outbox).where(eq(outbox.id, id)))[0];
  const idOf = async (channel: 'sms' | 'mail' | 'push', recipient: string): Promise<number> => {
    const [row] = await t.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.recipient, recipient));
    if (!row) throw new Error(`no ${channel} to ${recipient}`);
    return row.id;
  };
  const sms = async (to: string, text = `Text to ${to}`) => {
    await enqueue(t.db, { channel: 'sms', recipient: to, payload: { text } }, t.clock.now);
    return idOf('sms', to);
  };
  /** An SMS Twilio refused for good (invalid number): failed at its first attempt. */
  const failedSms = async (to = newNumber()) => {
    twilio.script.set(to, ['invalid']);
    const id = await sms(to);
    await relaySms(t.db, sender, t.clock.now);
    expect(await rowOf(id)).toMatchObject({ failedAt: t.clock.now, deliveredAt: null });
    return { id, to };
  };
  const list = async (query: string, as: UserRow | null = admin) => t.request({ method: 'GET', url: `/api/outbox?${query}`, as });
  const retry = async (id: number | string, as: UserRow | null = admin) => t.request({ method: 'POST', url: `/api/outbox/${String(id)}/retry`, as, payload: {} });

  beforeAll(async () => {
    twilio = await startTwilioStandIn();
    t = await createTestApp(engine, { TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_FROM: '+15005550006', TWILIO_API_URL: twilio.url, SMS_TIMEOUT_MS: '300' });
    const configured = smsSenderFrom(t.config);
    if (!configured) throw new Error('Twilio is configured');
    sender = configured;
    admin = await t.makeUser('admin');
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  it('the relays give up after the attempts the states count with', () => {
    expect([MAX_SMS_ATTEMPTS, MAX_MAIL_ATTEMPTS, MAX_PUSH_ATTEMPTS]).toEqual([MAX_DELIVERY_ATTEMPTS, MAX_DELIVERY_ATTEMPTS, MAX_DELIVERY_ATTEMPTS]);
  });

  it('state filter: failed, waiting and delivered, each message once, with its state; search finds part of the recipient', async () => {
    // One prefix for this test's numbers: the search keeps other tests' messages out.
    const prefix = `+4466${String(Date.now()).slice(-5)}`;
    const failed = await failedSms(`${prefix}01`);
    twilio.script.set(`${prefix}02`, ['fail']);
    const retrying = await sms(`${prefix}02`);
    await relaySms(t.db, sender, t.clock.now);
    const delivered = await sms(`${prefix}03`);
    await relaySms(t.db, sender, t.clock.now);
    // Queued after the relay ran: never tried.
    const queued = await sms(`${prefix}04`);
    // A mail out of attempts was given up by its relay without a failedAt: failed too.
    const mailTo = `gave-up.${prefix.slice(1)}@example.com`;
    await enqueue(t.db, { channel: 'mail', recipient: mailTo, payload: { subject: 'Hi', text: 'x' } }, t.clock.now);
    await t.db.update(outbox).set({ attempts: MAX_MAIL_ATTEMPTS, lastError: 'smtp 550' }).where(eq(outbox.recipient, mailTo));
    const mailId = await idOf('mail', mailTo);

    const ids = async (query: string) => {
      const response = await list(query);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ messages: OutboxMessage[] }>().messages.map((message) => [message.id, message.state]);
    };
    const search = encodeURIComponent(prefix.slice(3));
    expect(await ids(`channel=sms&state=failed&search=${search}`)).toEqual([[failed.id, 'failed']]);
    // Newest first.
    expect(await ids(`channel=sms&state=waiting&search=${search}`)).toEqual([[queued, 'waiting'], [retrying, 'waiting']]);
    expect(await ids(`channel=sms&state=delivered&search=${search}`)).toEqual([[delivered, 'delivered']]);
    expect(await ids(`state=failed&search=${search}`)).toEqual([[mailId, 'failed'], [failed.id, 'failed']]);
    expect(await ids(`search=${search}`)).toHaveLength(5);
    // Typed in E.164, a stored number (digits with the dial code) is found too.
    expect(await ids(`channel=sms&state=delivered&search=${encodeURIComponent(`+${prefix.slice(3)}`)}`)).toEqual([[delivered, 'delivered']]);
    // Any case, and % or _ are letters, not wildcards.
    expect(await ids(`search=${encodeURIComponent(`GAVE-UP.${prefix.slice(1)}`)}`)).toEqual([[mailId, 'failed']]);
    expect(await ids('search=%25&state=failed')).toEqual([]);
    expect(await ids('search=_&channel=sms')).toEqual([]);
    // The waiting SMS carries its attempt and error, the failed one its error.
    const [waitingRow] = (await list(`state=waiting&recipient=${encodeURIComponent(`${prefix}02`)}`)).json<{ messages: OutboxMessage[] }>().messages;
    expect(waitingRow).toMatchObject({ attempts: 1, failedAt: null, lastError: expect.stringContaining('503') });
    // Bad filters are the spec's validation_error, never a 500.
    for (const query of ['state=lost', 'channel=event', `search=${'x'.repeat(300)}`]) expect(codeOf(await list(query)), query).toBe('validation_error');
  });

  it('live events never show, whatever the filter', async () => {
    const [event] = await t.db.insert(outbox).values({ channel: 'event', recipient: 'topic:x', payload: {}, createdAt: t.clock.now, failedAt: t.clock.now }).returning({ id: outbox.id });
    for (const query of ['state=failed', 'state=waiting', 'search=topic']) {
      expect((await list(query)).json<{ messages: OutboxMessage[] }>().messages.map((message) => message.id), query).not.toContain(event?.id);
    }
  });

  it('retry: a failed SMS waits again, is picked up by the relay and delivered by Twilio', async () => {
    const { id, to } = await failedSms();
    expect(twilio.attempts.filter((n) => n === to)).toHaveLength(1);
    const retried = await retry(id);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().message).toMatchObject({ id, channel: 'sms', state: 'waiting', attempts: 0, failedAt: null, lastError: null, deliveredAt: null });
    expect(await rowOf(id)).toMatchObject({ nextAttemptAt: null });
    // The number is allowed now (the stand-in's script is used up): the next relay pass delivers it.
    // (Other tests' messages may be due too: only this number's outcome is looked at.)
    expect(await relaySms(t.db, sender, t.clock.now)).toMatchObject({ sent: expect.any(Number) });
    expect(twilio.accepted.filter((message) => message.to === to)).toEqual([expect.objectContaining({ body: `Text to ${to}` })]);
    const [listed] = (await list(`channel=sms&recipient=${encodeURIComponent(to)}`)).json<{ messages: OutboxMessage[] }>().messages;
    expect(listed).toMatchObject({ state: 'delivered', deliveredAt: t.clock.now, attempts: 1, failedAt: null });
    // Delivered now: a second retry is refused, and Twilio gets nothing more.
    expect([(await retry(id)).statusCode, codeOf(await retry(id))]).toEqual([409, 'message_not_failed']);
    await relaySms(t.db, sender, t.clock.now + 3_600_000);
    expect(twilio.accepted.filter((message) => message.to === to)).toHaveLength(1);
  });

  it('retry: a failed SMS refused again is failed again, with the new error', async () => {
    const { id, to } = await failedSms();
    twilio.script.set(to, ['unsubscribed']);
    expect((await retry(id)).statusCode).toBe(200);
    await relaySms(t.db, sender, t.clock.now);
    expect(await rowOf(id)).toMatchObject({ failedAt: t.clock.now, attempts: 1, lastError: expect.stringContaining('21610') });
  });

  it('retry: a mail out of attempts is taken up by the mail relay again', async () => {
    const to = `retry.${String(Date.now())}@example.com`;
    await enqueue(t.db, { channel: 'mail', recipient: to, payload: { subject: 'Receipt', text: 'Thanks' } }, t.clock.now);
    const id = await idOf('mail', to);
    const sent: string[] = [];
    const transport: MailTransport = { send: (mail) => { sent.push(mail.to); return Promise.resolve(); }, close: () => undefined };
    await t.db.update(outbox).set({ attempts: MAX_MAIL_ATTEMPTS, lastError: 'smtp 421', nextAttemptAt: t.clock.now + 3_600_000 }).where(eq(outbox.id, id));
    await relayMail(t.db, transport, t.clock.now + 7_200_000);
    expect(sent).not.toContain(to);
    expect((await retry(id)).json().message).toMatchObject({ state: 'waiting', attempts: 0, lastError: null });
    await relayMail(t.db, transport, t.clock.now);
    expect(sent.filter((address) => address === to)).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ deliveredAt: t.clock.now, attempts: 1 });
  });

  it('retry refuses a delivered or waiting message (409 message_not_failed), and answers 404 for an event, an unknown or a malformed id', async () => {
    const delivered = await sms(newNumber());
    await relaySms(t.db, sender, t.clock.now);
    expect(await rowOf(delivered)).toMatchObject({ deliveredAt: expect.any(Number) });
    const waiting = await sms(newNumber());
    const pushTo = await t.makeUser('rider');
    await enqueue(t.db, { channel: 'push', recipient: pushTo.id, payload: { title: 'T', msg: 'M' } }, t.clock.now);
    const waitingPush = await idOf('push', pushTo.id);
    for (const id of [delivered, waiting, waitingPush]) {
      const before = await rowOf(id);
      const response = await retry(id);
      expect([response.statusCode, response.json()]).toEqual([409, errorBody('message_not_failed')]);
      expect(await rowOf(id)).toEqual(before);
    }
    const [event] = await t.db.insert(outbox).values({ channel: 'event', recipient: 'topic:y', payload: {}, createdAt: t.clock.now, failedAt: t.clock.now, attempts: 9 }).returning();
    if (!event) throw new Error('event stored');
    for (const id of [event.id, 9_007_199_254_740_991, 0, -1, 'abc', '1.5', '1e3']) {
      const response = await retry(id);
      expect([String(id), response.statusCode, codeOf(response)]).toEqual([String(id), 404, 'not_found']);
    }
    expect(await rowOf(event.id)).toEqual(event);
  });

  it('attacks: riders, drivers, fleet admins and strangers neither read nor retry, and the message stays failed', async () => {
    const { id } = await failedSms();
    const before = await rowOf(id);
    const people = [null, await t.makeUser('rider'), await t.makeUser('driver'), await t.makeUser('fleetadmin')];
    for (const as of people) {
      const expected = as === null ? [401, 'not_logged_in'] : [403, 'forbidden'];
      const who = as?.usertype ?? 'anonymous';
      for (const response of [await list('state=failed', as), await list('', as), await retry(id, as)]) {
        expect([who, response.statusCode, codeOf(response)]).toEqual([who, ...expected]);
      }
    }
    expect(await rowOf(id)).toEqual(before);
  });

  it('two retries at once: one resets the message, the other is refused', async () => {
    const { id } = await failedSms();
    const answers = await Promise.all([retry(id), retry(id)]);
    expect(answers.map((response) => response.statusCode).sort()).toEqual([200, 409]);
  });
});

describe.each(ENGINES)('retries are rate limited on %s (issue 19)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'outbox-retry.user=3/1h' });
  });
  afterAll(() => t.close());

  it('a flood of retries is refused with 429 and Retry-After, and the refused one changes nothing', async () => {
    const admin = await t.makeUser('admin');
    const to = `+44771${String(Date.now()).slice(-6)}`;
    await enqueue(t.db, { channel: 'sms', recipient: to, payload: { text: 'x' } }, t.clock.now);
    const [row] = await t.db.update(outbox).set({ failedAt: t.clock.now, attempts: 1, lastError: 'twilio 400 code 21211' }).where(eq(outbox.recipient, to)).returning();
    if (!row) throw new Error('stored');
    const send = () => t.request({ method: 'POST', url: `/api/outbox/${String(row.id)}/retry`, as: admin, payload: {}, remoteAddress: '198.51.77.9' });
    // Three within the limit (the first resets the message, the next two find it waiting)...
    expect([(await send()).statusCode, (await send()).statusCode, (await send()).statusCode]).toEqual([200, 409, 409]);
    await t.db.update(outbox).set({ failedAt: t.clock.now, attempts: 1, lastError: 'again' }).where(eq(outbox.id, row.id));
    // ...and the fourth is refused before it reaches the message.
    const refused = await send();
    expect([refused.statusCode, refused.json()]).toEqual([429, errorBody('too_many_requests')]);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3600);
    expect((await t.db.select().from(outbox).where(eq(outbox.id, row.id)))[0]).toMatchObject({ failedAt: t.clock.now, lastError: 'again' });
  });
});
