import { greatCircleKm, toRadians, type LatLng } from '@rideway/domain';

/**
 * Moves shorter than this are GPS jitter, not driving: a parked car's fixes wander by a few
 * metres, and a bearing between two of them would spin the car icon at random.
 */
export const MIN_HEADING_MOVE_KM = 0.005;

const toDegrees = (radians: number): number => (radians * 180) / Math.PI;

/** The initial great-circle bearing from `from` to `to`, in degrees clockwise from north (0 to 360). */
export function bearingDegrees(from: LatLng, to: LatLng): number {
  const lat1 = toRadians(from.lat);
  const lat2 = toRadians(to.lat);
  const dLng = toRadians(to.lng - from.lng);
  const y = Math.sin(dLng) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLng);
  return (toDegrees(Math.atan2(y, x)) + 360) % 360;
}

const apart = (a: LatLng, b: LatLng): boolean => greatCircleKm(a, b) >= MIN_HEADING_MOVE_KM;

/** The heading along a path: the bearing between its last two distinct positions, or null when it has none. */
export function headingOf(path: readonly LatLng[]): number | null {
  const last = path.at(-1);
  if (!last) return null;
  for (let index = path.length - 2; index >= 0; index -= 1) {
    const before = path[index] as LatLng;
    if (apart(before, last)) return bearingDegrees(before, last);
  }
  return null;
}

/** A moving car's heading: the position it was last seen moving from, and where it points. */
export type HeadingTrack = { from: LatLng | null; heading: number | null };

export const NO_HEADING: HeadingTrack = { from: null, heading: null };

/**
 * The track after a new position. Live positions arrive one by one (and before the trip starts
 * none are kept), so the previous distinct one is remembered here; the first position takes its
 * heading from the path driven so far. A position within jitter of the last keeps the heading.
 */
export function trackHeading(track: HeadingTrack, position: LatLng, path: readonly LatLng[] = []): HeadingTrack {
  if (!track.from) return { from: position, heading: headingOf([...path, position]) };
  if (!apart(track.from, position)) return track;
  return { from: position, heading: bearingDegrees(track.from, position) };
}
