import type { MapTiles, PublicSettings, Settings } from '@rideway/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { REFERENCE_DATA_STALE_MS } from '../config/ui-constants';
import { api } from './client';
import { takeEarly } from './early';

export const SETTINGS = ['settings'] as const;

type SettingsAnswer = { settings: PublicSettings & MapTiles & Partial<Settings> };

/**
 * GET /api/settings, taking the answer public/early-requests.js asked for while the app's script
 * downloaded when there is one (issue 21 point 5).
 */
async function readSettings(): Promise<SettingsAnswer['settings']> {
  const early = await takeEarly('/api/settings');
  return (early ? ((await early.json()) as SettingsAnswer) : await api<SettingsAnswer>('/api/settings')).settings;
}

/**
 * The settings every visitor may read (app name, currency, company, links, sign-in options); an
 * admin gets the rest too, such as autoDispatch. Both carry the map tiles the server is configured
 * with. main.tsx fetches them before the first render: the header's appName and social links, the
 * footer's company and the booking form's currency are drawn once, where the server drew them,
 * rather than drawn again in one long task when the answer arrives.
 */
export const settingsQuery = queryOptions({ queryKey: SETTINGS, queryFn: readSettings, staleTime: REFERENCE_DATA_STALE_MS });

export function useSettings() {
  return useQuery(settingsQuery);
}
