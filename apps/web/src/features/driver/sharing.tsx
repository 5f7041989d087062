import type { User } from '@rideway/contract';
import { createContext, useContext, type ReactNode } from 'react';
import { useSharePosition, type SharingState } from './use-share-position';

const Sharing = createContext<SharingState>('off');

/**
 * Shares a signed-in driver's position on every screen while online, not only on the home: the
 * trip screen needs it most, for the rider's map and the tracked fare.
 */
export function DriverSharing({ me, children }: { me: User | null | undefined; children: ReactNode }) {
  const state = useSharePosition(me?.usertype === 'driver' && me.driverActiveStatus);
  return <Sharing.Provider value={state}>{children}</Sharing.Provider>;
}

/** Where position sharing stands, for the driver's status card. */
export const useSharingState = (): SharingState => useContext(Sharing);
