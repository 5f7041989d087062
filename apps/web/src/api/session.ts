import type { User } from '@rideway/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SESSION_STALE_MS } from '../config/ui-constants';
import { api, ApiError } from './client';
import { disableWebPush } from './push';
import { SETTINGS } from './settings';

/** The signed-in user's query: every sign-in and profile save writes its answer here. */
export const ME = ['me'] as const;

/** The signed-in user, or null for a visitor; undefined while it is not known yet. */
export function useMe() {
  return useQuery({
    queryKey: ME,
    queryFn: async () => {
      try {
        return (await api<{ user: User }>('/api/me')).user;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: SESSION_STALE_MS,
  });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: { email: string; password: string }) => api<{ user: User }>('/api/auth/login', { method: 'POST', body: credentials }),
    onSuccess: async ({ user }) => {
      queryClient.setQueryData(ME, user);
      // An admin reads every setting, a visitor only the public ones.
      await queryClient.invalidateQueries({ queryKey: SETTINGS });
    },
  });
}

/**
 * Signing out; `landing` is where the app goes. It goes there before the signed-in data is
 * dropped, in the same render: the page left behind never sees "no user" and sends the user to
 * /login?next=<itself>, which would race the landing.
 */
export function useLogout(landing: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      // Issue 19: this browser stops taking the user's push messages, while the session still allows the call.
      await disableWebPush();
      return api<undefined>('/api/auth/logout', { method: 'POST' });
    },
    onSuccess: () => {
      landing();
      queryClient.clear();
      queryClient.setQueryData(ME, null);
    },
  });
}

export function usePasswordReset() {
  return useMutation({ mutationFn: (email: string) => api<{ ok: true }>('/api/auth/password-reset', { method: 'POST', body: { email } }) });
}
