import { describe, expect, it } from 'vitest';
import { routePoints } from './polyline';

describe("a route's points from Google's encoded polyline", () => {
  it('decodes Google\'s documented example', () => {
    const points = routePoints('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
    expect(points).toHaveLength(3);
    expect(points[0]).toEqual({ lat: 38.5, lng: -120.2 });
    expect(points[1]?.lat).toBeCloseTo(40.7, 5);
    expect(points[2]?.lng).toBeCloseTo(-126.453, 5);
  });

  it('has no points for an empty polyline', () => {
    expect(routePoints('')).toEqual([]);
  });
});
