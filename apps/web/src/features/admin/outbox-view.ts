import type { OutboxMessage } from '@rideway/contract';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** What the recipient reads: an SMS's text, a push's title and message, a mail's subject. */
export function messageText(message: OutboxMessage): string {
  switch (message.channel) {
    case 'sms':
      return message.payload.text;
    case 'push':
      return [message.payload.title, message.payload.msg].filter((part) => part !== '').join(': ');
    case 'mail':
      return message.payload.subject;
  }
}

/**
 * The state as admins read it, in words (never colour alone): delivered; waiting, with the
 * attempts so far once one failed; failed.
 */
export function stateLabel(message: Pick<OutboxMessage, 'state' | 'attempts'>, t: Translate): string {
  if (message.state === 'waiting' && message.attempts > 0) return t('message_state_waiting_attempts', { count: message.attempts });
  return t(`message_state_${message.state}`);
}

export const STATE_COLOURS = { delivered: 'success', waiting: 'warning', failed: 'error' } as const;
