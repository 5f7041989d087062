import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../src/db/schema';
import { MAX_MAIL_ATTEMPTS, relayMail, retryDelayMs } from '../src/jobs/mail-relay';
import { enqueue } from '../src/modules/outbox/service';
import { smtpTransport } from '../src/providers/mail';
import { createTestApp, ENGINES, type TestApp } from './harness';

type Received = { from: string; to: string[]; data: string };

/** A local SMTP server that speaks the real protocol and keeps what it receives. */
async function fakeSmtp(options: { reject?: boolean } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      stream.on('end', () => {
        if (options.reject) {
          callback(new Error('mailbox unavailable'));
          return;
        }
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { received, url: `smtp://127.0.0.1:${port}`, close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

describe.each(ENGINES)('mail leaves the outbox through SMTP on %s (issue 3 item 6)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  it('delivers pending mail once, marking it delivered', async () => {
    const smtp = await fakeSmtp();
    const transport = smtpTransport(smtp.url, 'Rideway <no-reply@rideway.test>');
    try {
      await enqueue(t.db, { channel: 'mail', recipient: 'ada@example.com', payload: { subject: 'Reset your password', text: 'Open this link' } }, t.clock.now);
      expect(await relayMail(t.db, transport, t.clock.now)).toEqual({ sent: 1, failed: 0 });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toMatchObject({ from: 'no-reply@rideway.test', to: ['ada@example.com'] });
      expect(smtp.received[0]?.data).toContain('Subject: Reset your password');
      expect(smtp.received[0]?.data).toContain('Open this link');
      expect(await relayMail(t.db, transport, t.clock.now)).toEqual({ sent: 0, failed: 0 });
      const row = (await t.db.select().from(outbox).where(eq(outbox.recipient, 'ada@example.com')))[0];
      expect(row?.deliveredAt).toBe(t.clock.now);
    } finally {
      transport.close();
      await smtp.close();
    }
  });

  it('records a refused delivery and retries it later with a growing delay, up to the limit', async () => {
    const smtp = await fakeSmtp({ reject: true });
    const transport = smtpTransport(smtp.url, 'Rideway <no-reply@rideway.test>');
    try {
      await enqueue(t.db, { channel: 'mail', recipient: 'bounce@example.com', payload: { subject: 'Hi', text: 'x' } }, t.clock.now);
      expect(await relayMail(t.db, transport, t.clock.now)).toEqual({ sent: 0, failed: 1 });
      // Not yet due: nothing is tried.
      expect(await relayMail(t.db, transport, t.clock.now + retryDelayMs(1) - 1)).toEqual({ sent: 0, failed: 0 });
      let now = t.clock.now;
      for (let attempt = 2; attempt <= MAX_MAIL_ATTEMPTS; attempt += 1) {
        now += retryDelayMs(attempt - 1);
        expect(await relayMail(t.db, transport, now)).toEqual({ sent: 0, failed: 1 });
      }
      expect(await relayMail(t.db, transport, now + 365 * 24 * 3600 * 1000)).toEqual({ sent: 0, failed: 0 });
      const row = (await t.db.select().from(outbox).where(eq(outbox.recipient, 'bounce@example.com')))[0];
      expect(row).toMatchObject({ deliveredAt: null, attempts: MAX_MAIL_ATTEMPTS });
      expect(row?.lastError).toMatch(/mailbox unavailable/);
    } finally {
      transport.close();
      await smtp.close();
    }
  });
});
