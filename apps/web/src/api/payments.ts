import type { AdminRefundRequest, BookingPayments, DashboardRefundConfirmation, SavedCardView, TopupAnswer } from '@rideway/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, newIdempotencyKey } from './client';
import { REFUND_POLL_MS } from '../config/ui-constants';

/** Issue 18 on the web: cards on file, top-ups, a booking's payments and refunds, the admins' payments page. */

/** Providers that keep a card for later trips (card on file): the save-card choice is offered for these. */
export const SAVES_CARDS: ReadonlySet<string> = new Set(['stripe']);

/** Section 4's form post to a provider's checkout link, with the session (same origin). */
export function postForm(action: string, fields: Record<string, string>): void {
  const element = document.createElement('form');
  element.method = 'POST';
  element.action = action;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    element.append(input);
  }
  document.body.append(element);
  element.submit();
}

const CARDS = ['cards'] as const;

export function useSavedCards(enabled = true) {
  return useQuery({ queryKey: CARDS, queryFn: async () => (await api<{ cards: SavedCardView[] }>('/api/me/cards')).cards, enabled });
}

export function useRemoveCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<{ ok: true }>(`/api/me/cards/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CARDS }),
  });
}

/** A wallet top-up: started here, paid at the provider's checkout, credited on its confirmation. */
export const startTopup = (amount: number, provider: string) => api<TopupAnswer>('/api/wallet/topup', { method: 'POST', body: { amount, provider }, idempotencyKey: newIdempotencyKey() });

const paymentsKey = (id: string) => ['booking-payments', id] as const;

export function useBookingPayments(id: string, enabled: boolean) {
  return useQuery({
    queryKey: paymentsKey(id),
    queryFn: () => api<BookingPayments>(`/api/bookings/${id}/payments`),
    enabled,
    // A refund the provider has not confirmed yet is asked about again until it has.
    refetchInterval: (query) => (query.state.data?.refunds.some((refund) => refund.status === 'requested') ? REFUND_POLL_MS : false),
  });
}

export function useAdminRefund(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: AdminRefundRequest) => api<BookingPayments>(`/api/bookings/${id}/refunds`, { method: 'POST', body: request, idempotencyKey: newIdempotencyKey() }),
    onSuccess: (answer) => { queryClient.setQueryData(paymentsKey(id), answer); },
  });
}

/** Issue 22: an admin made a refund in the provider's dashboard; recorded with the provider's reference. */
export function useConfirmDashboardRefund(bookingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ refundId, ...request }: DashboardRefundConfirmation & { refundId: number }) => api<BookingPayments>(`/api/refunds/${refundId}/dashboard-confirmation`, { method: 'POST', body: request }),
    onSuccess: (answer) => { queryClient.setQueryData(paymentsKey(bookingId), answer); },
  });
}

export type ProviderForAdmin = { name: string; testMode: boolean; checkoutLink: string; webhookUrl: string | null; savesCards: boolean; currencies: string[] | null; takesCurrency: boolean };
export type ProvidersForAdmin = { providers: ProviderForAdmin[]; currency: string };
export type PaymentEventRow = { id: number; provider: string; eventId: string; type: string; source: string; reference: string | null; amount: number | null; currency: string | null; outcome: string; detail: string | null; receivedAt: number };

export function usePaymentProvidersForAdmin() {
  return useQuery({ queryKey: ['payments', 'providers'], queryFn: () => api<ProvidersForAdmin>('/api/payments/providers') });
}

export function usePaymentEvents(limit = 50) {
  return useQuery({ queryKey: ['payments', 'events', limit], queryFn: async () => (await api<{ events: PaymentEventRow[] }>(`/api/payments/events?limit=${limit}`)).events });
}
