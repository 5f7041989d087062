import { createServer, type IncomingHttpHeaders } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, outbox } from '../../src/db/schema';
import { MAX_SMS_ATTEMPTS, relaySms, SMS_LEASE_MS } from '../../src/jobs/sms-relay';
import { ar } from '../../src/modules/languages/messages/ar';
import { es } from '../../src/modules/languages/messages/es';
import { enqueue } from '../../src/modules/outbox/service';
import { gatewaySender } from '../../src/providers/sms/gateway';
import type { SmsSender } from '../../src/providers/sms/port';
import { smsSenderFrom } from '../../src/providers/sms';
import { twilioSender } from '../../src/providers/sms/twilio';
import { drop, pickup, PNG, sedan } from '../fixtures';
import { createTestApp, ENGINES, type TestApp } from '../harness';
import { listenLocally } from '../stand-ins/stand-in-server';
import { startTwilioStandIn, type TwilioStandIn } from '../stand-ins/twilio';

let numbers = 0;
const newNumber = (): string => {
  numbers += 1;
  return `+4477009${String(Date.now()).slice(-4)}${String(numbers).padStart(2, '0')}`;
};

describe.each(ENGINES)('SMS leave the outbox through Twilio and the HTTP gateway on %s (issue 19)', (engine) => {
  let t: TestApp;
  let twilio: TwilioStandIn;
  let sender: SmsSender;

  const smsRow = async (to: string) => (await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, to))))[0];
  const queue = (to: string, text: string) => enqueue(t.db, { channel: 'sms', recipient: to, payload: { text } }, t.clock.now);

  beforeAll(async () => {
    twilio = await startTwilioStandIn();
    t = await createTestApp(engine, {
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: '+15005550006',
      TWILIO_API_URL: twilio.url,
      SMS_TIMEOUT_MS: '300',
    });
    const configured = smsSenderFrom(t.config);
    if (!configured) throw new Error('Twilio is configured');
    sender = configured;
    // Earlier rows (none yet) would be relayed too: each test looks at its own number.
  });
  afterAll(async () => {
    await twilio.close();
    await t.close();
  });

  it('Twilio: the official SDK posts To, From and Body with Basic auth; the message is delivered once', async () => {
    const to = newNumber();
    await queue(to, 'Your code is 123456 & more: ñ، عربي');
    expect(await relaySms(t.db, sender, t.clock.now)).toEqual({ sent: 1, failed: 0 });
    expect(twilio.accepted.filter((m) => m.to === to)).toEqual([expect.objectContaining({ from: '+15005550006', messagingServiceSid: null, body: 'Your code is 123456 & more: ñ، عربي' })]);
    expect(await smsRow(to)).toMatchObject({ deliveredAt: t.clock.now, attempts: 1, lastError: null, failedAt: null });
    // Nothing left: a second pass sends nothing.
    expect(await relaySms(t.db, sender, t.clock.now + 60_000)).toEqual({ sent: 0, failed: 0 });
    expect(twilio.attempts.filter((n) => n === to)).toHaveLength(1);
  });

  it('Twilio: a Messaging Service picks the sender when configured', async () => {
    const viaService = twilioSender({ accountSid: twilio.accountSid, authToken: twilio.authToken, messagingServiceSid: `MG${'a'.repeat(32)}`, apiUrl: twilio.url, timeoutMs: 1000 });
    const to = newNumber();
    expect(await viaService.send(to, 'hello')).toMatchObject({ outcome: 'sent', id: expect.stringMatching(/^SM[0-9a-f]{32}$/) });
    expect(twilio.accepted.find((m) => m.to === to)).toMatchObject({ from: null, messagingServiceSid: `MG${'a'.repeat(32)}` });
  });

  it.each([
    ['invalid', '21211'],
    ['unsubscribed', '21610'],
  ] as const)('Twilio: a number refused for good (%s) is marked failed at once and never retried', async (mode, code) => {
    const to = newNumber();
    twilio.script.set(to, [mode]);
    await queue(to, 'Your code is 111111');
    expect(await relaySms(t.db, sender, t.clock.now)).toEqual({ sent: 0, failed: 1 });
    const row = await smsRow(to);
    expect(row).toMatchObject({ deliveredAt: null, failedAt: t.clock.now, attempts: 1, nextAttemptAt: null });
    expect(row?.lastError).toContain(`code ${code}`);
    expect(await relaySms(t.db, sender, t.clock.now + 24 * 3600_000)).toEqual({ sent: 0, failed: 0 });
    expect(twilio.attempts.filter((n) => n === to)).toHaveLength(1);
  });

  it('Twilio: a 5xx, a timeout and a malformed answer are retried with a growing delay, then delivered', async () => {
    const to = newNumber();
    twilio.script.set(to, ['fail', 'hang', 'garbage']);
    await queue(to, 'Your code is 222222');
    let now = t.clock.now;
    const errors: (string | null | undefined)[] = [];
    const delays: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await relaySms(t.db, sender, now)).toEqual({ sent: 0, failed: 1 });
      const row = await smsRow(to);
      errors.push(row?.lastError);
      expect(row?.failedAt).toBeNull();
      delays.push((row?.nextAttemptAt ?? 0) - now);
      // Not before its time.
      expect(await relaySms(t.db, sender, now + 1)).toEqual({ sent: 0, failed: 0 });
      now = row?.nextAttemptAt ?? now;
    }
    expect(errors[0]).toContain('twilio 503');
    expect(errors[1]).toContain('did not answer in time');
    expect(errors[2]).toContain('malformed answer');
    expect(delays[1]).toBeGreaterThan(delays[0] ?? 0);
    expect(delays[2]).toBeGreaterThan(delays[1] ?? 0);
    expect(await relaySms(t.db, sender, now)).toEqual({ sent: 1, failed: 0 });
    expect(await smsRow(to)).toMatchObject({ deliveredAt: now, attempts: 4, lastError: null, failedAt: null });
    expect(twilio.accepted.filter((m) => m.to === to)).toHaveLength(1);
  });

  it('Twilio: wrong credentials are retried (an operator can fix them), and given up after the last attempt', async () => {
    const wrong = twilioSender({ accountSid: twilio.accountSid, authToken: 'not-the-token-0000', from: '+15005550006', apiUrl: twilio.url, timeoutMs: 1000 });
    const to = newNumber();
    await queue(to, 'x');
    let now = t.clock.now;
    for (let attempt = 1; attempt <= MAX_SMS_ATTEMPTS; attempt += 1) {
      expect(await relaySms(t.db, wrong, now)).toEqual({ sent: 0, failed: 1 });
      const row = await smsRow(to);
      expect(row?.lastError).toContain('code 20003');
      if (attempt < MAX_SMS_ATTEMPTS) expect(row?.failedAt).toBeNull();
      now = row?.nextAttemptAt ?? now;
    }
    expect(await smsRow(to)).toMatchObject({ attempts: MAX_SMS_ATTEMPTS, failedAt: expect.any(Number), deliveredAt: null });
  });

  it('no SMS is lost when the server stops while sending: the claim expires and a restarted relay delivers it', async () => {
    const to = newNumber();
    await queue(to, 'Survives a restart');
    let reachedProvider!: () => void;
    const reached = new Promise<void>((resolve) => { reachedProvider = resolve; });
    // The first process claims the message and dies while Twilio has not answered: it writes nothing.
    const dying: SmsSender = { name: 'dying', send: () => { reachedProvider(); return new Promise(() => undefined); } };
    void relaySms(t.db, dying, t.clock.now);
    await reached;
    expect(await smsRow(to)).toMatchObject({ deliveredAt: null, attempts: 0, nextAttemptAt: t.clock.now + SMS_LEASE_MS });
    // Another process skips it while it is claimed...
    const restarted = smsSenderFrom(t.config);
    if (!restarted) throw new Error('configured');
    expect(await relaySms(t.db, restarted, t.clock.now + 1000)).toEqual({ sent: 0, failed: 0 });
    expect(twilio.attempts.filter((n) => n === to)).toHaveLength(0);
    // ...and delivers it, once, when the claim has expired.
    expect(await relaySms(t.db, restarted, t.clock.now + SMS_LEASE_MS)).toEqual({ sent: 1, failed: 0 });
    expect(twilio.accepted.filter((m) => m.to === to)).toHaveLength(1);
    expect(await smsRow(to)).toMatchObject({ deliveredAt: t.clock.now + SMS_LEASE_MS, attempts: 1 });
  });

  it('admins see a failed SMS in the outbox listing, with its attempts and error', async () => {
    const admin = await t.makeUser('admin');
    const to = newNumber();
    twilio.script.set(to, ['invalid']);
    await queue(to, 'never arrives');
    await relaySms(t.db, sender, t.clock.now);
    const listed = await t.request({ method: 'GET', url: `/api/outbox?channel=sms&recipient=${encodeURIComponent(to)}`, as: admin });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().messages).toEqual([expect.objectContaining({ recipient: to, deliveredAt: null, failedAt: t.clock.now, attempts: 1, lastError: expect.stringContaining('21211') })]);
    const rider = await t.makeUser('rider');
    expect((await t.request({ method: 'GET', url: '/api/outbox', as: rider })).statusCode).toBe(403);
  });

  it('phone sign-in: the code goes through Twilio in the user\'s language, and the code read there signs in', async () => {
    await t.setSettings({ MobileLoginEnabled: true });
    // Stored as digits with the dial code, as the app sends it; Twilio gets it in E.164.
    const mobile = newNumber().slice(1);
    const rider = await t.makeUser('rider', { mobile, language: 'es' });
    const asked = await t.request({ method: 'POST', url: '/api/auth/otp/request', payload: { mobile } });
    expect(asked.statusCode).toBe(200);
    expect(await relaySms(t.db, sender, t.clock.now)).toMatchObject({ sent: 1 });
    const message = twilio.accepted.find((m) => m.to === `+${mobile}`);
    expect(message?.body).toMatch(/^Tu código de .+ es \d{6}\. Caduca en 10 minutos\.$/);
    const code = /\d{6}/.exec(message?.body ?? '')?.[0];
    const verified = await t.request({ method: 'POST', url: '/api/auth/otp/verify', payload: { verificationId: asked.json().verificationId, otp: code } });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user?.id ?? verified.json().profile?.id ?? verified.json().uid).toBe(rider.id);
  });
});

type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: string };

/** A generic SMS gateway: answers each request with the next scripted status (then 200), or hangs, or sends a broken JSON body. */
async function startGateway() {
  const seen: Seen[] = [];
  const script: ('ok' | 'fail' | 'refuse' | 'hang' | 'garbage')[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const mode = script.shift() ?? 'ok';
      if (mode === 'hang') return;
      if (mode === 'fail') response.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      else if (mode === 'refuse') response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid destination"}');
      else if (mode === 'garbage') response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":');
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"queued","id":"m-1"}');
    });
  });
  return { seen, script, ...(await listenLocally(server)) };
}

describe('the generic HTTP SMS gateway (issue 19)', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.close());

  const text = 'Code "42" & 50% {to} <b>\nسطر';

  it('a JSON template gets JSON-escaped values, with the operator\'s headers', async () => {
    const sender = gatewaySender({ url: `${gateway.url}/send`, method: 'POST', headers: { Authorization: 'Bearer k-123' }, body: '{"to":"{to}","message":"{text}","sender":"Rideway"}', timeoutMs: 500 });
    expect(await sender.send('+34600000001', text)).toEqual({ outcome: 'sent' });
    const request = gateway.seen.at(-1);
    expect(request).toMatchObject({ method: 'POST', url: '/send' });
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.authorization).toBe('Bearer k-123');
    expect(JSON.parse(request?.body ?? '')).toEqual({ to: '+34600000001', message: text, sender: 'Rideway' });
  });

  it('a form template gets URL-encoded values; a GET gateway takes them in the URL', async () => {
    const form = gatewaySender({ url: `${gateway.url}/form`, method: 'POST', headers: {}, body: 'api_key=abc&to={to}&msg={text}', timeoutMs: 500 });
    expect(await form.send('+34600000002', text)).toEqual({ outcome: 'sent' });
    const posted = gateway.seen.at(-1);
    expect(posted?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const fields = new URLSearchParams(posted?.body ?? '');
    expect(Object.fromEntries(fields)).toEqual({ api_key: 'abc', to: '+34600000002', msg: text });
    const get = gatewaySender({ url: `${gateway.url}/get?to={to}&text={text}`, method: 'GET', headers: {}, timeoutMs: 500 });
    expect(await get.send('+34600000003', text)).toEqual({ outcome: 'sent' });
    const query = new URL(gateway.seen.at(-1)?.url ?? '', 'http://x').searchParams;
    expect([query.get('to'), query.get('text')]).toEqual(['+34600000003', text]);
  });

  it('5xx, a timeout and a malformed JSON answer are retried; another 4xx is a refusal', async () => {
    const sender = gatewaySender({ url: `${gateway.url}/send`, method: 'POST', headers: {}, body: '{"to":"{to}","text":"{text}"}', timeoutMs: 300 });
    gateway.script.push('fail', 'hang', 'garbage', 'refuse');
    expect(await sender.send('+34600000004', 'a')).toEqual({ outcome: 'retry', error: 'gateway 502: bad gateway' });
    expect(await sender.send('+34600000004', 'a')).toEqual({ outcome: 'retry', error: 'gateway: did not answer in time' });
    expect(await sender.send('+34600000004', 'a')).toEqual({ outcome: 'retry', error: 'gateway 200: malformed answer (not JSON)' });
    expect(await sender.send('+34600000004', 'a')).toEqual({ outcome: 'failed', error: 'gateway 400: {"error":"invalid destination"}' });
  });
});

describe.each(ENGINES)('messages in the recipient\'s language on %s (issue 19)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
    const admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  const pushTexts = async (uid: string) => (await t.db.select().from(outbox).where(and(eq(outbox.channel, 'push'), eq(outbox.recipient, uid)))).map((row) => row.payload.msg);

  it.each([
    ['ar', ar],
    ['es', es],
  ] as const)('a rider whose language is %s gets the trip notices, the sign-in code and the reset mail in it', async (language, messages) => {
    const rider = await t.makeUser('rider', { language });
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'AB12 CDE', language: 'en' });
    await t.goOnline(driver);
    const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver })).statusCode).toBe(200);
    expect(await pushTexts(rider.id)).toContain(messages.notice_driver_accepted);
    expect(messages.notice_driver_accepted).not.toBe('Your driver is on the way.');

    await t.setSettings({ MobileLoginEnabled: true });
    expect((await t.request({ method: 'POST', url: '/api/auth/otp/request', payload: { mobile: rider.mobile } })).statusCode).toBe(200);
    const sms = (await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, rider.mobile ?? ''))))[0];
    const code = /\d{6}/.exec(String(sms?.payload.text))?.[0] ?? '';
    const [before, after] = messages.sms_login_code.split('{{code}}');
    expect(code).toMatch(/^\d{6}$/);
    expect(String(sms?.payload.text).endsWith(`${code}${after ?? ''}`)).toBe(true);
    expect(String(sms?.payload.text)).toContain((before ?? '').split('{{app}}')[0] ?? '');

    expect((await t.request({ method: 'POST', url: '/api/auth/password-reset', payload: { email: rider.email } })).statusCode).toBeLessThan(300);
    const mail = (await t.db.select().from(outbox).where(and(eq(outbox.channel, 'mail'), eq(outbox.recipient, rider.email ?? ''))))[0];
    expect(String(mail?.payload.text)).toContain(messages.mail_reset_text.split('{{name}}')[0] ?? '');
    expect(String(mail?.payload.subject)).toContain(messages.mail_reset_subject.split('{{app}}')[0]?.trim() ?? '');
  });

  /** A text of the language file with its {{placeholders}} filled, as i18next fills them. */
  const fill = (template: string, values: Record<string, string | number>): string => template.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => String(values[name]));
  const pushesTo = async (uid: string) => (await t.db.select().from(outbox).where(and(eq(outbox.channel, 'push'), eq(outbox.recipient, uid)))).map((row) => row.payload);

  it.each([
    ['ar', ar, 'rtl'],
    ['es', es, 'ltr'],
  ] as const)('in %s: the wallet credit, the chat, the receipt mail, the refund and a parcel recipient\'s SMS', async (language, messages, dir) => {
    const admin = await t.makeUser('admin', { language: 'en' });
    const rider = await t.makeUser('rider', { language });
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'AB12 CDE', language: 'en', firstName: 'Dana' });
    await t.goOnline(driver);

    // An admin's credit: the title and the text in the rider's language, the admin's name in it.
    expect((await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 80 } })).statusCode).toBe(200);
    expect(await pushesTo(rider.id)).toContainEqual(expect.objectContaining({ title: messages.push_wallet_title, msg: fill(messages.push_wallet_credited, { amount: '80.00', name: admin.firstName }), screen: 'wallet' }));

    // A trip paid by wallet: the driver's chat message is titled in the rider's language.
    const created = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'wallet' } });
    expect(created.statusCode).toBe(201);
    const { id, booking_id: reference } = created.json<{ id: string; booking_id: string }>();
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/accept`, as: driver })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/chat`, as: driver, payload: { message: 'Outside now' } })).statusCode).toBeLessThan(300);
    expect(await pushesTo(rider.id)).toContainEqual(expect.objectContaining({ title: fill(messages.push_chat_title, { name: 'Dana' }), msg: 'Outside now', screen: 'onlineChat' }));
    for (const step of ['arrive', 'start', 'reach']) expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/${step}`, as: driver, payload: {} })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/bookings/${id}/pay`, as: rider, payload: { payment_mode: 'wallet' } })).statusCode).toBe(200);

    // The receipt mail: subject, labels, payment method, and the HTML's language and direction.
    const mail = (await t.db.select().from(outbox).where(and(eq(outbox.channel, 'mail'), eq(outbox.recipient, rider.email ?? '')))).map((row) => row.payload).find((payload) => String(payload.subject).includes(reference));
    expect(mail?.subject).toBe(fill(messages.mail_receipt_subject, { app: 'Rideway', reference }));
    expect(String(mail?.text)).toContain(`${messages.receipt_total_paid}: `);
    expect(String(mail?.text)).toContain(`${messages.receipt_payment_method}: ${messages.receipt_wallet}`);
    expect(String(mail?.text)).not.toContain('Total paid');
    expect(String(mail?.html)).toContain(`<html lang="${language}" dir="${dir}">`);

    // An admin's refund to the wallet: the rider is told in the rider's language; the receipt the
    // admin downloads is in the admin's (English), with the refund line.
    const refunded = await t.request({ method: 'POST', url: `/api/bookings/${id}/refunds`, as: admin, payload: { amount: 1, reason: 'Detour' } });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await pushesTo(rider.id)).toContainEqual(expect.objectContaining({ msg: fill(messages.push_refund_to_wallet, { amount: '1.00 USD', reference }) }));
    const adminReceipt = await t.request({ method: 'GET', url: `/api/bookings/${id}/receipt`, as: admin });
    expect(adminReceipt.body).toContain('<html lang="en" dir="ltr">');
    expect(adminReceipt.body).toContain('Total paid');
    expect(adminReceipt.body).toMatch(/Refund \(.+\)/);
    const riderReceipt = await t.request({ method: 'GET', url: `/api/bookings/${id}/receipt`, as: rider });
    expect(riderReceipt.body).toContain(messages.receipt_total_paid);

    // A parcel: its recipient (no account) hears at the start and at the drop, in the sender's language.
    await t.setSettings({ appcat: 'delivery' });
    try {
      const phone = newNumber();
      const parcel = await t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', payment_mode: 'wallet', deliveryPerson: 'Sam', deliveryPersonPhone: ` ${phone} ` } });
      expect(parcel.statusCode, parcel.body).toBe(201);
      const parcelId = parcel.json<{ id: string }>().id;
      expect((await t.request({ method: 'POST', url: `/api/bookings/${parcelId}/pay`, as: rider, payload: { payment_mode: 'wallet' } })).statusCode).toBe(200);
      await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, parcelId));
      const texts = async () => (await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, phone))).orderBy(outbox.id)).map((row) => row.payload.text);
      for (const step of ['accept', 'arrive']) {
        const moved = await t.request({ method: 'POST', url: `/api/bookings/${parcelId}/${step}`, as: driver, payload: {} });
        expect(moved.statusCode, moved.body).toBe(200);
      }
      // Nothing before the parcel leaves the pickup.
      expect(await texts()).toEqual([]);
      const values = { app: 'Rideway', sender: `${rider.firstName} ${rider.lastName}`.trim(), driver: `${driver.firstName} ${driver.lastName}`.trim() };
      // Section 3's pickup_image and deliver_image: the parcel is photographed at each end.
      expect((await t.request({ method: 'POST', url: `/api/bookings/${parcelId}/photos`, as: driver, payload: { kind: 'pickup', image: PNG } })).statusCode).toBe(200);
      const started = await t.request({ method: 'POST', url: `/api/bookings/${parcelId}/start`, as: driver, payload: {} });
      expect(started.statusCode, started.body).toBe(200);
      expect(await texts()).toEqual([fill(messages.sms_parcel_on_way, values)]);
      expect((await t.request({ method: 'POST', url: `/api/bookings/${parcelId}/photos`, as: driver, payload: { kind: 'deliver', image: PNG } })).statusCode).toBe(200);
      const reached = await t.request({ method: 'POST', url: `/api/bookings/${parcelId}/reach`, as: driver, payload: {} });
      expect(reached.statusCode, reached.body).toBe(200);
      expect(await texts()).toEqual([fill(messages.sms_parcel_on_way, values), fill(messages.sms_parcel_delivered, values)]);
    } finally {
      await t.setSettings({});
    }
  });

  it('the language is saved from the app on the profile; an unknown one is refused; English is the fallback', async () => {
    const rider = await t.makeUser('rider');
    const saved = await t.request({ method: 'PATCH', url: '/api/me', as: rider, payload: { language: 'ar' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().user).toMatchObject({ language: 'ar' });
    const unknown = await t.request({ method: 'PATCH', url: '/api/me', as: rider, payload: { language: 'xx' } });
    expect(unknown.statusCode).toBe(400);
    const other = await t.makeUser('rider', { language: 'de' });
    await t.setSettings({ MobileLoginEnabled: true });
    await t.request({ method: 'POST', url: '/api/auth/otp/request', payload: { mobile: other.mobile } });
    const sms = (await t.db.select().from(outbox).where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, other.mobile ?? ''))))[0];
    expect(String(sms?.payload.text)).toMatch(/^Your .+ code is \d{6}\. It expires in 10 minutes\.$/);
  });
});
