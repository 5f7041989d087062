import type { InboxNotification, InboxResponse } from '@rideway/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { useLiveTopic } from './live';

/** Issue 19: the signed-in user's inbox, the push messages the server sent them. */
export const INBOX = ['inbox'] as const;

/** Read again at most this often without a notice (a notice on the live topic reads it at once). */
const INBOX_STALE_MS = 60_000;

export function useInbox(enabled: boolean) {
  const queryClient = useQueryClient();
  // Every push message also comes to the open app as a notice: the inbox is read again.
  useLiveTopic(enabled ? 'user:me' : null, (event) => {
    if (event.event === 'notice') void queryClient.invalidateQueries({ queryKey: INBOX });
  });
  return useQuery({
    queryKey: INBOX,
    queryFn: () => api<InboxResponse>('/api/me/notifications'),
    enabled,
    staleTime: INBOX_STALE_MS,
  });
}

/** The cached inbox with the given messages read now and the server's unread count. */
const markedRead = (ids: number[] | 'all', unread: number) => (current: InboxResponse | undefined): InboxResponse | undefined =>
  current && {
    unread,
    notifications: current.notifications.map((n: InboxNotification) => (n.readAt === null && (ids === 'all' || ids.includes(n.id)) ? { ...n, readAt: Date.now() } : n)),
  };

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<{ unread: number }>(`/api/me/notifications/${String(id)}/read`, { method: 'POST' }),
    onSuccess: ({ unread }, id) => { queryClient.setQueryData(INBOX, markedRead([id], unread)); },
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ unread: number }>('/api/me/notifications/read-all', { method: 'POST' }),
    onSuccess: ({ unread }) => { queryClient.setQueryData(INBOX, markedRead('all', unread)); },
  });
}
