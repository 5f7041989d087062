import type { LatLng } from '@rideway/domain';
import { useEffect, useMemo, useRef, useState } from 'react';
import { reportPosition } from '../../api/driver';

/** Where sharing stands: off (offline), waiting for a first fix, sharing, or refused or unavailable. */
export type SharingState = 'off' | 'waiting' | 'sharing' | 'denied' | 'unavailable';

/** How often the newest position goes to the platform while online. */
export const SHARE_EVERY_MS = 4000;

/**
 * Issue 8: while the driver is online, the browser's position goes to the platform every few
 * seconds (the newest fix, so a stationary driver stays on the live map). Refused permission and
 * a missing fix are states of their own, so the driver knows why no offer comes.
 */
export function useSharePosition(online: boolean): { state: SharingState; position: LatLng | null } {
  const [state, setState] = useState<SharingState>('off');
  const [position, setPosition] = useState<LatLng | null>(null);
  const latest = useRef<GeolocationCoordinates | null>(null);
  useEffect(() => {
    if (!online) {
      setState('off');
      return;
    }
    if (!('geolocation' in navigator)) {
      setState('unavailable');
      return;
    }
    setState('waiting');
    latest.current = null;
    const send = () => {
      const coords = latest.current;
      if (!coords) return;
      reportPosition(coords.latitude, coords.longitude).catch(() => {
        // A lost report is replaced by the next one a few seconds later.
      });
    };
    const watch = navigator.geolocation.watchPosition(
      (position) => {
        const first = latest.current === null;
        latest.current = position.coords;
        setState('sharing');
        setPosition({ lat: position.coords.latitude, lng: position.coords.longitude });
        // The first fix goes at once, so the driver is on the map and can be offered trips now.
        if (first) send();
      },
      (error) => { setState(error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable'); },
      { enableHighAccuracy: true, maximumAge: SHARE_EVERY_MS },
    );
    const timer = setInterval(send, SHARE_EVERY_MS);
    return () => {
      navigator.geolocation.clearWatch(watch);
      clearInterval(timer);
    };
  }, [online]);
  // One object per change, so the screens that read it re-render on a new fix, not on every render.
  const shown = online ? position : null;
  return useMemo(() => ({ state, position: shown }), [state, shown]);
}
