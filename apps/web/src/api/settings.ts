import type { PublicSettings } from '@rideway/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** The settings every visitor may read: app name, currency, company, links, sign-in options. */
export function useSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: async () => (await api<{ settings: PublicSettings }>('/api/settings')).settings, staleTime: 5 * 60_000 });
}
