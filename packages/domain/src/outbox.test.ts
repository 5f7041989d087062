import { describe, expect, it } from 'vitest';
import { MAX_DELIVERY_ATTEMPTS, outboxState } from './outbox';

describe('issue 19: the state of a message admins follow', () => {
  it('is delivered once it left, whatever happened before', () => {
    expect(outboxState({ deliveredAt: 5, failedAt: null, attempts: 3 })).toBe('delivered');
  });

  it('is failed when refused for good, or when the last attempt failed', () => {
    expect(outboxState({ deliveredAt: null, failedAt: 9, attempts: 1 })).toBe('failed');
    expect(outboxState({ deliveredAt: null, failedAt: null, attempts: MAX_DELIVERY_ATTEMPTS })).toBe('failed');
  });

  it('is waiting while attempts remain', () => {
    expect(outboxState({ deliveredAt: null, failedAt: null, attempts: 0 })).toBe('waiting');
    expect(outboxState({ deliveredAt: null, failedAt: null, attempts: MAX_DELIVERY_ATTEMPTS - 1 })).toBe('waiting');
  });
});
