import type { User } from '@rideway/contract';
import type { LatLng } from '@rideway/domain';
import { createContext, useContext, type ReactNode } from 'react';
import { useSharePosition, type SharingState } from './use-share-position';

const Sharing = createContext<{ state: SharingState; position: LatLng | null }>({ state: 'off', position: null });

/**
 * Shares a signed-in driver's position on every screen while online, not only on the home: the
 * trip screen needs it most, for the rider's map and the tracked fare.
 */
export function DriverSharing({ me, children }: { me: User | null | undefined; children: ReactNode }) {
  const sharing = useSharePosition(me?.usertype === 'driver' && me.driverActiveStatus);
  return <Sharing.Provider value={sharing}>{children}</Sharing.Provider>;
}

/** Where position sharing stands, and the driver's newest position (null while not shared). */
export const useSharing = () => useContext(Sharing);
