import type { MapTiles, PublicSettings, Settings } from '@rideway/contract';
import { useQuery } from '@tanstack/react-query';
import { REFERENCE_DATA_STALE_MS } from '../config/ui-constants';
import { api } from './client';

export const SETTINGS = ['settings'] as const;

/**
 * The settings every visitor may read (app name, currency, company, links, sign-in options); an
 * admin gets the rest too, such as autoDispatch. Both carry the map tiles the server is configured with.
 */
export function useSettings() {
  return useQuery({ queryKey: SETTINGS, queryFn: async () => (await api<{ settings: PublicSettings & MapTiles & Partial<Settings> }>('/api/settings')).settings, staleTime: REFERENCE_DATA_STALE_MS });
}
