import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** Section 4's last rule: convenience fees of PAID and COMPLETE bookings, today, this month and in all. */
type EarningsCards = { today: number; thisMonth: number; total: number };

/** A driver on the live map (GET /api/drivers/live and the drivers:live topic). */
export type { LiveDriver } from '@rideway/contract';

export function useEarningsCards() {
  return useQuery({ queryKey: ['dashboard'], queryFn: async () => (await api<{ earnings: EarningsCards }>('/api/dashboard')).earnings });
}
