import type { CancelReason, CarType, PaymentProvider } from '@rideway/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** The car types riders choose from; public, so the home page's form fills for visitors too. */
export function useCarTypes() {
  return useQuery({ queryKey: ['cartypes'], queryFn: async () => (await api<{ cartypes: CarType[] }>('/api/cartypes')).cartypes, staleTime: 5 * 60_000 });
}

export function useCancelReasons(enabled: boolean) {
  return useQuery({ queryKey: ['cancel-reasons'], queryFn: async () => (await api<{ reasons: CancelReason[] }>('/api/cancel-reasons')).reasons, enabled, staleTime: 5 * 60_000 });
}

/** Section 7 /get_providers: where a card payment form may be posted. */
export function usePaymentProviders(enabled: boolean) {
  return useQuery({ queryKey: ['providers'], queryFn: () => api<PaymentProvider[]>('/get_providers'), enabled, staleTime: 5 * 60_000 });
}
