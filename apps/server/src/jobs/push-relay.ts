import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { outbox, pushDeliveries, pushSubscriptions, users } from '../db/schema';
import { pushSender } from '../modules/push/service';
import { channelOfDevice, type PushChannel } from '../providers/push/channels';
import { PushEndpointRefused } from '../providers/push/endpoint-guard';
import { expoSender, type ExpoSender } from '../providers/push/expo';
import type { FcmSender, PhoneMessage, PhoneOutcome } from '../providers/push/fcm';
import type { PushSender, PushSenderOptions } from '../providers/push/webpush';
import { retryDelayMs } from './mail-relay';

export const MAX_PUSH_ATTEMPTS = 6;
/**
 * A claimed message belongs to the process that claimed it for this long. A process that dies
 * while sending writes nothing, and the message is claimed again once the lease is over: no
 * message is lost, and a device may at worst get it twice.
 */
export const PUSH_LEASE_MS = 5 * 60_000;
/** Expo's receipts are read this long after the send (Expo's advice: about 15 minutes). */
export const EXPO_RECEIPT_DELAY_MS = 15 * 60_000;
/** Expo keeps receipts about a day: a ticket still without one then is not asked about again. */
const EXPO_RECEIPT_GIVE_UP_MS = 24 * 60 * 60_000;

/** Where push messages leave: Web Push always, FCM with a service account, Expo when turned on (it needs no account). */
export type PushChannels = { webpush: PushSender; fcm?: FcmSender; expo?: ExpoSender };

/** The channels the configuration turns on (FIREBASE_SERVICE_ACCOUNT, EXPO_ACCESS_TOKEN, EXPO_PUSH_URL, PUSH_TIMEOUT_MS). */
export async function pushChannels(ctx: AppContext, log?: PushSenderOptions['log']): Promise<PushChannels> {
  const { FIREBASE_SERVICE_ACCOUNT, EXPO_PUSH, EXPO_ACCESS_TOKEN, EXPO_PUSH_URL, PUSH_TIMEOUT_MS } = ctx.config;
  const expoOn = EXPO_PUSH || Boolean(EXPO_ACCESS_TOKEN) || Boolean(EXPO_PUSH_URL);
  // Firebase's SDK loads only with a service account (issue 21 point 4).
  const fcm = FIREBASE_SERVICE_ACCOUNT ? await import('../providers/push/fcm') : undefined;
  return {
    webpush: await pushSender(ctx, log),
    ...(fcm && FIREBASE_SERVICE_ACCOUNT ? { fcm: fcm.fcmSender(fcm.parseServiceAccount(FIREBASE_SERVICE_ACCOUNT), { timeoutMs: PUSH_TIMEOUT_MS }) } : {}),
    ...(expoOn ? { expo: await expoSender({ ...(EXPO_ACCESS_TOKEN ? { accessToken: EXPO_ACCESS_TOKEN } : {}), ...(EXPO_PUSH_URL ? { baseUrl: EXPO_PUSH_URL } : {}), timeoutMs: PUSH_TIMEOUT_MS }) } : {}),
  };
}

type Row = typeof outbox.$inferSelect;
type Device = typeof pushSubscriptions.$inferSelect;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Section 7's push payload as a phone shows it; FCM's data values are strings, so params travel as JSON. */
function phoneMessage(payload: Row['payload']): PhoneMessage & { extra: Record<string, unknown> } {
  const title = text(payload.title);
  const body = text(payload.msg);
  const screen = text(payload.screen);
  const params = typeof payload.params === 'object' && payload.params !== null ? payload.params : undefined;
  return {
    title,
    body,
    data: { msg: body, ...(screen ? { screen } : {}), ...(params ? { params: JSON.stringify(params) } : {}) },
    extra: { msg: body, ...(screen ? { screen } : {}), ...(params ? { params } : {}) },
  };
}

type Results = {
  delivered: { device: string; kind: PushChannel; ticket?: string }[];
  gone: Device[];
  errors: string[];
  notes: string[];
};

/** Sends one message to the devices that have not had it yet; records nothing (the caller does). */
async function sendToDevices(channels: PushChannels, row: Row, pending: Device[]): Promise<Results> {
  const results: Results = { delivered: [], gone: [], errors: [], notes: [] };
  const take = (device: Device, kind: PushChannel, outcome: PhoneOutcome) => {
    if (outcome.outcome === 'sent') results.delivered.push({ device: device.endpoint, kind, ...(outcome.ticket ? { ticket: outcome.ticket } : {}) });
    else if (outcome.outcome === 'gone') results.gone.push(device);
    else results.errors.push(outcome.error);
  };
  const byChannel = (channel: PushChannel) => pending.filter((device) => channelOfDevice(device.kind) === channel);

  for (const device of byChannel('webpush')) {
    if (!device.keys) continue;
    try {
      const status = await channels.webpush({ endpoint: device.endpoint, keys: device.keys }, JSON.stringify(row.payload));
      if (status === 404 || status === 410) results.gone.push(device);
      else if (status < 200 || status >= 300) results.errors.push(`push service answered ${String(status)}`);
      else results.delivered.push({ device: device.endpoint, kind: 'webpush' });
    } catch (cause) {
      if (cause instanceof PushEndpointRefused) {
        // Its host now resolves to a private address: nothing is posted there, and it is forgotten.
        results.gone.push(device);
        results.notes.push(cause.message.slice(0, 300));
      } else {
        results.errors.push(cause instanceof Error ? cause.message.slice(0, 500) : 'push failed');
      }
    }
  }

  const message = phoneMessage(row.payload);
  const fcmDevices = byChannel('fcm');
  if (fcmDevices.length > 0 && !channels.fcm) {
    results.notes.push(`${String(fcmDevices.length)} FCM token(s) skipped: FIREBASE_SERVICE_ACCOUNT is not set`);
  } else if (channels.fcm) {
    for (const device of fcmDevices) take(device, 'fcm', await channels.fcm.send(device.endpoint, message));
  }

  const expoDevices = byChannel('expo');
  if (expoDevices.length > 0 && !channels.expo) {
    results.notes.push(`${String(expoDevices.length)} Expo token(s) skipped: Expo push is off (EXPO_PUSH)`);
  } else if (channels.expo && expoDevices.length > 0) {
    const outcomes = await channels.expo.send(expoDevices.map((device) => device.endpoint), message);
    expoDevices.forEach((device, index) => { take(device, 'expo', outcomes[index] ?? { outcome: 'retry', error: 'expo: no ticket' }); });
  }
  return results;
}

/** Forgets devices a provider called gone, and the user's section 3 pushToken when it was one of them. */
async function forget(db: Db, uid: string, gone: readonly Device[]): Promise<void> {
  if (gone.length === 0) return;
  await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone.map((device) => device.id)));
  await db.update(users).set({ pushToken: null, userPlatform: null }).where(and(eq(users.id, uid), inArray(users.pushToken, gone.map((device) => device.endpoint))));
}

/**
 * Delivers pending push messages from the outbox to every device of the recipient: browsers by
 * Web Push, Android and iOS phones by FCM, Expo apps by Expo. Messages are claimed with SKIP
 * LOCKED and a lease in a short transaction, sent outside any transaction (a slow provider holds
 * no lock, and the embedded database stays free), and the outcome is written in a second one.
 * Each device served is recorded (push_deliveries), so a retry goes only to the devices that have
 * not had the message. A device its provider calls gone (Web Push 404/410, FCM UNREGISTERED or
 * INVALID_ARGUMENT, Expo DeviceNotRegistered) is forgotten and not retried; any other failure
 * retries the message later with a growing delay, up to MAX_PUSH_ATTEMPTS.
 */
export async function relayPush(db: Db, channels: PushChannels | PushSender, now: number, batch = 50): Promise<{ sent: number; failed: number }> {
  const senders: PushChannels = typeof channels === 'function' ? { webpush: channels } : channels;
  let sent = 0;
  let failed = 0;
  const waiting = await db.select({ id: outbox.id }).from(outbox).where(and(eq(outbox.channel, 'push'), isNull(outbox.deliveredAt))).limit(1);
  if (waiting.length === 0) return { sent, failed };
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.channel, 'push'), isNull(outbox.deliveredAt), lt(outbox.attempts, MAX_PUSH_ATTEMPTS), or(isNull(outbox.nextAttemptAt), lte(outbox.nextAttemptAt, now))))
      .orderBy(asc(outbox.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    if (due.length > 0) await tx.update(outbox).set({ nextAttemptAt: now + PUSH_LEASE_MS }).where(inArray(outbox.id, due.map((row) => row.id)));
    return due;
  });
  for (const row of claimed) {
    const devices = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.uid, row.recipient)).orderBy(asc(pushSubscriptions.id));
    const served = new Set((await db.select({ device: pushDeliveries.device }).from(pushDeliveries).where(eq(pushDeliveries.outboxId, row.id))).map((d) => d.device));
    const results = await sendToDevices(senders, row, devices.filter((device) => !served.has(device.endpoint)));
    const notificationId = typeof row.payload.notification === 'string' ? row.payload.notification : null;
    await db.transaction(async (tx) => {
      if (results.delivered.length > 0) {
        await tx
          .insert(pushDeliveries)
          .values(results.delivered.map(({ device, kind, ticket }) => ({ outboxId: row.id, device, kind, notificationId, ticket: ticket ?? null, deliveredAt: now })))
          .onConflictDoNothing();
      }
      await forget(tx, row.recipient, results.gone);
      const attempts = row.attempts + 1;
      if (results.errors.length > 0) {
        const more = results.errors.length > 1 ? ` (and ${String(results.errors.length - 1)} more)` : '';
        await tx.update(outbox).set({ attempts, lastError: `${results.errors[0] ?? ''}${more}`.slice(0, 500), nextAttemptAt: now + retryDelayMs(attempts) }).where(eq(outbox.id, row.id));
      } else {
        const notes = results.gone.length > 0 ? [...results.notes, `${String(results.gone.length)} device(s) gone and forgotten`] : results.notes;
        const note = notes.join('; ') || (devices.length > 0 ? null : 'no device to push to');
        await tx.update(outbox).set({ attempts, deliveredAt: now, lastError: note?.slice(0, 500) ?? null, nextAttemptAt: null }).where(eq(outbox.id, row.id));
      }
    });
    sent += results.delivered.length;
    if (results.errors.length > 0) failed += 1;
  }
  return { sent, failed };
}

/**
 * Reads Expo's receipts for tickets at least EXPO_RECEIPT_DELAY_MS old. A receipt saying
 * DeviceNotRegistered forgets the token (the app was removed from the phone); another error is
 * left on the message for admins. A ticket without a receipt after a day is not asked about again.
 */
export async function checkExpoReceipts(db: Db, channels: PushChannels, now: number, batch = 300): Promise<{ checked: number; gone: number }> {
  if (!channels.expo) return { checked: 0, gone: 0 };
  const due = await db
    .select()
    .from(pushDeliveries)
    .where(and(isNotNull(pushDeliveries.ticket), isNull(pushDeliveries.receiptCheckedAt), lte(pushDeliveries.deliveredAt, now - EXPO_RECEIPT_DELAY_MS)))
    .orderBy(asc(pushDeliveries.deliveredAt))
    .limit(batch);
  if (due.length === 0) return { checked: 0, gone: 0 };
  const receipts = await channels.expo.receipts(due.map((delivery) => delivery.ticket ?? ''));
  let checked = 0;
  let gone = 0;
  await db.transaction(async (tx) => {
    for (const delivery of due) {
      const receipt = receipts.get(delivery.ticket ?? '') ?? { outcome: 'pending' };
      if (receipt.outcome === 'pending' && delivery.deliveredAt > now - EXPO_RECEIPT_GIVE_UP_MS) continue;
      if (receipt.outcome === 'gone') {
        const devices = await tx.select().from(pushSubscriptions).where(and(eq(pushSubscriptions.endpoint, delivery.device), eq(pushSubscriptions.kind, 'expo')));
        for (const device of devices) await forget(tx, device.uid, [device]);
        gone += 1;
      } else if (receipt.outcome === 'error') {
        await tx.update(outbox).set({ lastError: `expo receipt: ${receipt.error}`.slice(0, 500) }).where(eq(outbox.id, delivery.outboxId));
      }
      await tx.update(pushDeliveries).set({ receiptCheckedAt: now }).where(and(eq(pushDeliveries.outboxId, delivery.outboxId), eq(pushDeliveries.device, delivery.device)));
      checked += 1;
    }
  });
  return { checked, gone };
}
