import { describe, expect, it } from 'vitest';
import { isPlausibleMove, MAX_TRACKING_SPEED_KMH } from './geo';

const cambridge = { lat: 52.2053, lng: 0.1218 };
const oxford = { lat: 51.752, lng: -1.2577 };

describe('fare integrity: tracking points a car could have reached', () => {
  it('accepts the first point and ordinary driving', () => {
    expect(isPlausibleMove(undefined, { ...oxford, at: 0 })).toBe(true);
    // About 1.1 km in one minute: 67 km/h.
    expect(isPlausibleMove({ lat: 52.2, lng: 0.12, at: 0 }, { lat: 52.21, lng: 0.12, at: 60_000 })).toBe(true);
  });
  it('refuses Cambridge to Oxford in a few seconds', () => {
    expect(isPlausibleMove({ ...cambridge, at: 0 }, { ...oxford, at: 5_000 })).toBe(false);
  });
  it('has its limit at 200 km/h', () => {
    expect(MAX_TRACKING_SPEED_KMH).toBe(200);
    // About 107 km: plausible in an hour, not in half an hour.
    expect(isPlausibleMove({ ...cambridge, at: 0 }, { ...oxford, at: 3_600_000 })).toBe(true);
    expect(isPlausibleMove({ ...cambridge, at: 0 }, { ...oxford, at: 1_800_000 })).toBe(false);
  });
  it('allows GPS jitter, and does not judge points of the same instant', () => {
    expect(isPlausibleMove({ lat: 52.2, lng: 0.12, at: 0 }, { lat: 52.2005, lng: 0.12, at: 1 })).toBe(true);
    expect(isPlausibleMove({ lat: 52.2, lng: 0.12, at: 10 }, { lat: 52.3, lng: 0.12, at: 10 })).toBe(true);
  });
});
