import type { User } from '@rideway/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SESSION_STALE_MS } from '../config/ui-constants';
import { api } from './client';
import { takeEarly } from './early';
import { expectLiveSessionEnd } from './live';
import { disableWebPush } from './push';
import { SETTINGS } from './settings';

/** The signed-in user's query: every sign-in and profile save writes its answer here. */
export const ME = ['me'] as const;

/**
 * GET /api/session, taking the answer public/early-requests.js asked for while the app's script
 * downloaded when there is one (issue 21 point 5). It answers a visitor with null rather than a
 * 401: no failing request on a public page.
 */
async function readSession(): Promise<User | null> {
  const early = await takeEarly('/api/session');
  const answer = early ? ((await early.json()) as { user: User | null }) : await api<{ user: User | null }>('/api/session');
  return answer.user;
}

/** The signed-in user, or null for a visitor; main.tsx fetches it before the first render. */
export const sessionQuery = queryOptions({ queryKey: ME, queryFn: readSession, staleTime: SESSION_STALE_MS });

/** The signed-in user, or null for a visitor; undefined while it is not known yet. */
export function useMe() {
  return useQuery(sessionQuery);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    // Issue 20 point 5: staff with two-factor sign-in get a challenge instead (api/two-factor.ts).
    mutationFn: (credentials: { email: string; password: string }) =>
      api<{ user: User } | { twoFactorRequired: true; challenge: string; enrol: boolean }>('/api/auth/login', { method: 'POST', body: credentials }),
    onSuccess: async (answer) => {
      if (!('user' in answer)) return;
      queryClient.setQueryData(ME, answer.user);
      // An admin reads every setting, a visitor only the public ones.
      await queryClient.invalidateQueries({ queryKey: SETTINGS });
    },
  });
}

/**
 * Signing out; `landing` moves the app to where it goes and resolves once it is there. The
 * signed-in data is dropped only then: a router's move waits for the next page's code, and a page
 * left behind that saw "no user" meanwhile would send the user to /login?next=<itself> instead.
 */
export function useLogout(landing: () => Promise<void> | void) {
  const queryClient = useQueryClient();
  return useMutation({
    onMutate: () => { expectLiveSessionEnd(true); },
    mutationFn: async () => {
      // Issue 19: this browser stops taking the user's push messages, while the session still allows the call.
      await disableWebPush();
      return api<undefined>('/api/auth/logout', { method: 'POST' });
    },
    onSuccess: async () => {
      await landing();
      queryClient.clear();
      queryClient.setQueryData(ME, null);
    },
    onSettled: () => { expectLiveSessionEnd(false); },
  });
}

export function usePasswordReset() {
  return useMutation({ mutationFn: (email: string) => api<{ ok: true }>('/api/auth/password-reset', { method: 'POST', body: { email } }) });
}
