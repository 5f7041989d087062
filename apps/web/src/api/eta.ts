import type { Eta } from '@rideway/contract';
import { useQuery } from '@tanstack/react-query';
import { ETA_REFRESH_MS } from '../config/ui-constants';
import { api } from './client';

/** The ETA is kept per booking and target: once the trip starts, the pickup's ETA is not shown as the drop's. */
export const etaKey = (id: string, target: Eta['target'] | undefined) => ['eta', id, target ?? 'none'] as const;

/**
 * The driver's road distance and time to the pickup, or once started to the drop (issue 16),
 * asked again every ETA_REFRESH_MS while `enabled`. A refusal (no position yet, no route) is no
 * ETA: the line is simply not shown.
 */
export function useEta(id: string, target: Eta['target'] | undefined, enabled: boolean) {
  return useQuery({ queryKey: etaKey(id, target), queryFn: () => api<Eta>(`/api/bookings/${id}/eta`), enabled, refetchInterval: ETA_REFRESH_MS, retry: false });
}
