import type { OutboxMessage, OutboxQuery } from '@rideway/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

const OUTBOX = ['outbox'] as const;
/** A waiting message leaves within seconds: the list follows without a reload. */
const OUTBOX_REFRESH_MS = 10_000;

/** GET /api/outbox with only the filters chosen. */
export function outboxPath(filters: OutboxQuery): string {
  const query = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
  const text = query.toString();
  return text ? `/api/outbox?${text}` : '/api/outbox';
}

/** Issue 19: the outbox's mail, SMS and push, newest first, as the admin filtered them. */
export function useOutbox(filters: OutboxQuery) {
  return useQuery({
    queryKey: [...OUTBOX, filters],
    queryFn: async () => (await api<{ messages: OutboxMessage[] }>(outboxPath(filters))).messages,
    refetchInterval: OUTBOX_REFRESH_MS,
    // A new filter keeps the old rows in view until its own arrive.
    placeholderData: keepPreviousData,
  });
}

/** Sends a failed message again: it waits for its relay once more. */
export function useRetryMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<{ message: OutboxMessage }>(`/api/outbox/${String(id)}/retry`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: OUTBOX }),
  });
}
