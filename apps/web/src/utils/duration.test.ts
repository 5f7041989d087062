import { describe, expect, it } from 'vitest';
import { countdownText, wholeMinutes } from './duration';

describe('durations as the driver and the rider read them', () => {
  it('rounds a drive up to whole minutes, at least one', () => {
    expect(wholeMinutes(0)).toBe(1);
    expect(wholeMinutes(59)).toBe(1);
    expect(wholeMinutes(61)).toBe(2);
    expect(wholeMinutes(600)).toBe(10);
  });
  it('counts an offer down as m:ss, never below 0:00', () => {
    expect(countdownText(20_000)).toBe('0:20');
    expect(countdownText(19_001)).toBe('0:20');
    expect(countdownText(75_000)).toBe('1:15');
    expect(countdownText(-500)).toBe('0:00');
  });
});
