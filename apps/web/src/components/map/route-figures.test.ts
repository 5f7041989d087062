import { describe, expect, it } from 'vitest';
import { routeFigures } from './route-figures';

describe('a route\'s distance and duration as the booking map shows them', () => {
  it('gives km with one decimal, or miles when convert_to_mile is on', () => {
    expect(routeFigures(5.4321, 780, false)).toEqual({ distance: '5.4', minutes: 13 });
    expect(routeFigures(16.09344, 1800, true)).toEqual({ distance: '10.0', minutes: 30 });
    expect(routeFigures(1.609344, 60, true).distance).toBe('1.0');
  });

  it('rounds the duration to whole minutes, at least one', () => {
    expect(routeFigures(0, 0, false)).toEqual({ distance: '0.0', minutes: 1 });
    expect(routeFigures(0.2, 29, false).minutes).toBe(1);
    expect(routeFigures(3, 90, false).minutes).toBe(2);
    expect(routeFigures(3, 149, false).minutes).toBe(2);
  });
});
