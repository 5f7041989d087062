import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withSummary } from '../../http/docs';
import { AppError } from '../../http/app-error';
import { listOutbox, type OutboxChannel } from './service';

const CHANNELS: readonly OutboxChannel[] = ['mail', 'sms', 'push'];

/** Admins read what left (or waits to leave) by mail, SMS and push: on one laptop, this is the inbox. */
export function outboxRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/outbox', withSummary('Mail, SMS and push messages; ?channel=&recipient='), async (request) => {
    const { channel, recipient } = request.query as Record<string, unknown>;
    if (channel !== undefined && !CHANNELS.includes(channel as OutboxChannel)) throw new AppError('validation_error', 'channel');
    if (recipient !== undefined && (typeof recipient !== 'string' || recipient.length > 254)) throw new AppError('validation_error', 'recipient');
    const rows = await listOutbox(ctx.db, { channel: channel as OutboxChannel | undefined, recipient });
    return { messages: rows.map((row) => ({ id: row.id, channel: row.channel, recipient: row.recipient, payload: row.payload, createdAt: row.createdAt, deliveredAt: row.deliveredAt })) };
  });
}
