import { describe, expect, it } from 'vitest';
import { canReuseEta, etaTargetOf, ETA_REUSE_MS } from './eta';

describe('issue 16: the ETA the rider sees', () => {
  it('is to the pickup while the driver comes, to the drop once started, else none', () => {
    expect(etaTargetOf('ACCEPTED')).toBe('pickup');
    expect(etaTargetOf('ARRIVED')).toBe('pickup');
    expect(etaTargetOf('STARTED')).toBe('drop');
    for (const status of ['NEW', 'PAYMENT_PENDING', 'REACHED', 'PENDING', 'PAID', 'COMPLETE', 'CANCELLED'] as const) expect(etaTargetOf(status)).toBeUndefined();
  });

  const from = { lat: 51.5, lng: -0.12 };
  // About 33 m and 67 m north.
  const near = { lat: 51.5003, lng: -0.12 };
  const far = { lat: 51.5006, lng: -0.12 };
  it('is reused while the driver moved at most 50 m and it is at most 30 s old', () => {
    expect(canReuseEta({ target: 'pickup', from, at: 0 }, { target: 'pickup', from: near, at: ETA_REUSE_MS })).toBe(true);
    expect(canReuseEta({ target: 'pickup', from, at: 0 }, { target: 'pickup', from: far, at: 1000 })).toBe(false);
    expect(canReuseEta({ target: 'pickup', from, at: 0 }, { target: 'pickup', from, at: ETA_REUSE_MS + 1 })).toBe(false);
  });
  it('is asked again when the target changed (the trip started)', () => {
    expect(canReuseEta({ target: 'pickup', from, at: 0 }, { target: 'drop', from, at: 1 })).toBe(false);
  });
});
