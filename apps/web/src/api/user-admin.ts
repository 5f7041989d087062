import type { User, UserDetail } from '@rideway/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { ListedType } from './users';

/**
 * Issue 20 point 6: the users an admin (or a fleet admin: its drivers) finds by name, email or
 * phone. Without a term it is the plain list; while a new term loads the last answer stays shown.
 */
export function useUserSearch(usertype: ListedType, search: string) {
  const term = search.trim();
  return useQuery({
    queryKey: ['users', usertype, ...(term ? ['search', term] : [])],
    queryFn: async () => {
      const query = new URLSearchParams({ usertype, ...(term ? { search: term } : {}) });
      return (await api<{ users: User[] }>(`/api/users?${query.toString()}`)).users;
    },
    placeholderData: keepPreviousData,
  });
}

/** One user's page: profile, documents, trips, wallet, ratings and approval history. */
export function useUserDetail(id: string) {
  return useQuery({ queryKey: ['users', 'detail', id], queryFn: () => api<UserDetail>(`/api/users/${id}/detail`), retry: false });
}

/** Approve, or suspend with a reason; every list and page showing users refreshes. */
export function useUserApproval(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { approved: boolean; reason?: string }) => api<{ user: User; changed: boolean }>(`/api/users/${id}/approval`, { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
}

/** An admin turns a staff member's two-factor sign-in off, with the reason they read; the page refreshes. */
export function useTwoFactorReset(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => api<undefined>(`/api/users/${id}/two-factor/reset`, { method: 'POST', body: { reason } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['users', 'detail', id] }),
  });
}
