import type { CancelReason, CarType, PaymentProvider } from '@rideway/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { REFERENCE_DATA_STALE_MS } from '../config/ui-constants';
import { api } from './client';

/** The car types riders choose from; public, so the home page's form fills for visitors too. */
export const carTypesQuery = queryOptions({ queryKey: ['cartypes'], queryFn: async () => (await api<{ cartypes: CarType[] }>('/api/cartypes')).cartypes, staleTime: REFERENCE_DATA_STALE_MS });

export function useCarTypes() {
  return useQuery(carTypesQuery);
}

export function useCancelReasons(enabled: boolean) {
  return useQuery({ queryKey: ['cancel-reasons'], queryFn: async () => (await api<{ reasons: CancelReason[] }>('/api/cancel-reasons')).reasons, enabled, staleTime: REFERENCE_DATA_STALE_MS });
}

/** Section 7 /get_providers: where a card payment form may be posted. */
export function usePaymentProviders(enabled: boolean) {
  return useQuery({ queryKey: ['providers'], queryFn: () => api<PaymentProvider[]>('/get_providers'), enabled, staleTime: REFERENCE_DATA_STALE_MS });
}
