import type { LatLng } from '@rideway/domain';
import { useEffect, useMemo, useState } from 'react';
import { reportPosition } from '../api/driver';
import { POSITION_SHARE_INTERVAL_MS } from '../config/ui-constants';

/** Where sharing stands: off (offline), waiting for a first fix, sharing, or refused or unavailable. */
export type SharingState = 'off' | 'waiting' | 'sharing' | 'denied' | 'unavailable';

/** What the browser said since the driver went online: a fix, or why there is none. */
type Watched = { state: 'sharing' | 'denied' | 'unavailable'; position: LatLng | null };

/**
 * Issue 8: while the driver is online, the browser's position goes to the platform every few
 * seconds (the newest fix, so a stationary driver stays on the live map). Refused permission and
 * a missing fix are states of their own, so the driver knows why no offer comes.
 */
export function useSharePosition(online: boolean): { state: SharingState; position: LatLng | null } {
  const located = 'geolocation' in navigator;
  const [watched, setWatched] = useState<Watched | null>(null);
  useEffect(() => {
    if (!online || !located) return undefined;
    let latest: GeolocationCoordinates | null = null;
    const send = () => {
      if (!latest) return;
      reportPosition(latest.latitude, latest.longitude).catch(() => {
        // A lost report is replaced by the next one a few seconds later.
      });
    };
    const watch = navigator.geolocation.watchPosition(
      (position) => {
        const first = latest === null;
        latest = position.coords;
        setWatched({ state: 'sharing', position: { lat: position.coords.latitude, lng: position.coords.longitude } });
        // The first fix goes at once, so the driver is on the map and can be offered trips now.
        if (first) send();
      },
      (error) => {
        const state = error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable';
        setWatched((current) => ({ state, position: current?.position ?? null }));
      },
      { enableHighAccuracy: true, maximumAge: POSITION_SHARE_INTERVAL_MS },
    );
    const timer = setInterval(send, POSITION_SHARE_INTERVAL_MS);
    return () => {
      navigator.geolocation.clearWatch(watch);
      clearInterval(timer);
      // Going offline forgets this session's fix: the next one starts by waiting again.
      setWatched(null);
    };
  }, [online, located]);
  const state: SharingState = !online ? 'off' : !located ? 'unavailable' : (watched?.state ?? 'waiting');
  const position = online ? (watched?.position ?? null) : null;
  // One object per change, so the screens that read it re-render on a new fix, not on every render.
  return useMemo(() => ({ state, position }), [state, position]);
}
