import type { OutboxMessage } from '@rideway/contract';
import { describe, expect, it } from 'vitest';
import { outboxPath } from '../../api/outbox';
import { messageText, stateLabel } from './outbox-view';

const base = { id: 1, recipient: '447700900123', createdAt: 1, deliveredAt: null, attempts: 0, lastError: null, failedAt: null, state: 'waiting' } as const;
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key}:${JSON.stringify(values)}` : key);

describe('issue 19: the admins\' Messages screen', () => {
  it('shows what the recipient reads: SMS text, push title and message, mail subject', () => {
    expect(messageText({ ...base, channel: 'sms', payload: { text: 'Your code is 123456' } })).toBe('Your code is 123456');
    expect(messageText({ ...base, channel: 'push', payload: { title: 'Wallet', msg: '5 was added' } })).toBe('Wallet: 5 was added');
    expect(messageText({ ...base, channel: 'push', payload: { title: '', msg: 'Only a message' } })).toBe('Only a message');
    expect(messageText({ ...base, channel: 'mail', payload: { subject: 'Your receipt', text: 'long body', html: '<p>x</p>' } })).toBe('Your receipt');
  });

  it('names each state in words, with the attempts of a message still being tried', () => {
    const label = (message: Pick<OutboxMessage, 'state' | 'attempts'>) => stateLabel(message, t);
    expect(label({ state: 'delivered', attempts: 2 })).toBe('message_state_delivered');
    expect(label({ state: 'failed', attempts: 1 })).toBe('message_state_failed');
    expect(label({ state: 'waiting', attempts: 0 })).toBe('message_state_waiting');
    expect(label({ state: 'waiting', attempts: 3 })).toBe('message_state_waiting_attempts:{"count":3}');
  });

  it('asks the server only for the filters chosen', () => {
    expect(outboxPath({})).toBe('/api/outbox');
    expect(outboxPath({ channel: 'sms', state: 'failed', search: '+44 7700' })).toBe('/api/outbox?channel=sms&state=failed&search=%2B44+7700');
  });
});
