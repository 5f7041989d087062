import type { Booking, BookingListQuery, BookingRequest, CarTypeEstimates, ChatMessage, Estimate, PaymentForm, TrackingEntry } from '@rideway/contract';
import type { Place } from '@rideway/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, newIdempotencyKey } from './client';

export const BOOKINGS = ['bookings'] as const;
const bookingKey = (id: string) => ['booking', id] as const;

/** The list's search and filters (issue 17), as GET /api/bookings takes them. */
export type BookingFilters = Partial<Pick<BookingListQuery, 'q' | 'status' | 'from' | 'to'>>;

const queryOf = (filters: BookingFilters): string => {
  const params = new URLSearchParams(Object.entries(filters as Record<string, string | number | undefined>).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));
  const text = params.toString();
  return text ? `?${text}` : '';
};

/**
 * The caller's bookings, newest first (a driver's trips, a fleet's, or every one for an admin);
 * with filters, those the server finds (issue 17). The last answer stays while the next loads.
 */
export function useBookings(filters?: BookingFilters) {
  const query = filters ? queryOf(filters) : '';
  return useQuery({
    queryKey: query ? [...BOOKINGS, query] : BOOKINGS,
    queryFn: async () => (await api<{ bookings: Booking[] }>(`/api/bookings${query}`)).bookings,
    placeholderData: keepPreviousData,
  });
}

export function useBooking(id: string) {
  return useQuery({ queryKey: bookingKey(id), queryFn: () => api<Booking>(`/api/bookings/${id}`) });
}

/** A booking's newer state (an action's answer or a live event) replaces the cached one everywhere. */
export function storeBooking(queryClient: QueryClient, booking: Booking): void {
  queryClient.setQueryData(bookingKey(booking.id), (cached: Booking | undefined) => ({ ...cached, ...booking }));
  // Every list holding it: the whole one and any searched or filtered one.
  queryClient.setQueriesData({ queryKey: BOOKINGS }, (list: Booking[] | undefined) => list?.map((row) => (row.id === booking.id ? { ...row, ...booking } : row)));
}

type EstimateRequest = Pick<BookingRequest, 'pickup' | 'drop' | 'carType' | 'parcelTypeIndex' | 'optionIndex'>;

export const requestEstimate = (request: EstimateRequest) => api<Estimate>('/api/estimates', { method: 'POST', body: request });

/**
 * Issue 17, point 4: the trip's price for every car type, in one request, once pickup and drop are
 * set (signed-in riders and admins only: `enabled`). Asked again only when a place changes.
 */
export function useCarTypeEstimates(pickup: Place | null, drop: Place | null, enabled: boolean) {
  const places = pickup && drop ? { pickup, drop } : null;
  return useQuery({
    queryKey: ['car-type-estimates', places?.pickup.lat, places?.pickup.lng, places?.drop.lat, places?.drop.lng],
    queryFn: () => api<CarTypeEstimates>('/api/estimates/car-types', { method: 'POST', body: places }),
    enabled: enabled && places !== null,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: BookingRequest) => api<Booking>('/api/bookings', { method: 'POST', body: request, idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BOOKINGS }),
  });
}

/** Issue 17: books again, as a new booking, a trip nobody took in time; the list then shows both. */
export function useRetryBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Booking>(`/api/bookings/${id}/retry`, { method: 'POST', body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BOOKINGS }),
  });
}

/** The rider's and admin's steps, and the driver's: accept, arrive, start, reach, the parcel's photos, pay. */
type BookingAction = { id: string; action: 'cancel' | 'complete' | 'assign' | 'pay' | 'accept' | 'arrive' | 'start' | 'reach' | 'photos'; body?: Record<string, unknown> };

/** A section 4 step on one booking; its answer is the booking after the step. */
export function useBookingAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: BookingAction) =>
      api<Booking>(`/api/bookings/${id}/${action}`, { method: 'POST', body: body ?? {}, ...(action === 'pay' ? { idempotencyKey: newIdempotencyKey() } : {}) }),
    onSuccess: (booking) => { storeBooking(queryClient, booking); },
  });
}

export type { PaymentForm } from '@rideway/contract';

export const requestPaymentForm = (id: string) => api<PaymentForm>(`/api/bookings/${id}/pay`, { method: 'POST', body: { payment_mode: 'card' }, idempotencyKey: newIdempotencyKey() });

const chatKey = (id: string) => ['chat', id] as const;

export function useChat(id: string, enabled: boolean) {
  return useQuery({ queryKey: chatKey(id), queryFn: async () => (await api<{ messages: ChatMessage[] }>(`/api/bookings/${id}/chat`)).messages, enabled });
}

export function useSendChat(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => api<ChatMessage>(`/api/bookings/${id}/chat`, { method: 'POST', body: { message } }),
    onSuccess: (message) => { addChatMessage(queryClient, id, message); },
  });
}

/** Adds a message once: it arrives both as the sender's answer and as the live event. */
export function addChatMessage(queryClient: QueryClient, id: string, message: ChatMessage): void {
  queryClient.setQueryData(chatKey(id), (list: ChatMessage[] | undefined) => (list?.some((m) => m.smsId === message.smsId) ? list : [...(list ?? []), message]));
}

export function useTracking(id: string) {
  return useQuery({ queryKey: ['tracking', id], queryFn: async () => (await api<{ tracking: TrackingEntry[] }>(`/api/bookings/${id}/tracking`)).tracking });
}
