import type { GrossEarningsCards } from '@rideway/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';


/** A driver on the live map (GET /api/drivers/live and the drivers:live topic). */
export type { LiveDriver } from '@rideway/contract';

export function useEarningsCards() {
  return useQuery({ queryKey: ['dashboard'], queryFn: async () => (await api<{ earnings: GrossEarningsCards }>('/api/dashboard')).earnings });
}
