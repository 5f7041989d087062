import type { TwoFactorEnrolment, TwoFactorStatus, User } from '@rideway/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { ME } from './session';
import { SETTINGS } from './settings';

/** Issue 20 point 5: two-factor sign-in for admins and fleet admins. */
export const TWO_FACTOR = ['me', 'two-factor'] as const;

/** What a sign-in answers when it stops before the session: the challenge travels as an httpOnly cookie too. */
export type SecondStepAnswer = { twoFactorRequired: true; challenge: string; enrol: boolean };
export const isSecondStep = (answer: object): answer is SecondStepAnswer => 'twoFactorRequired' in answer;

/** Where the second step happens, keeping the page the sign-in returns to. */
export function secondStepPath(answer: SecondStepAnswer, next: string | null): string {
  const query = new URLSearchParams();
  if (answer.enrol) query.set('enrol', '1');
  if (next) query.set('next', next);
  const text = query.toString();
  return `/login/2fa${text === '' ? '' : `?${text}`}`;
}

export function useTwoFactorStatus() {
  return useQuery({ queryKey: TWO_FACTOR, queryFn: () => api<TwoFactorStatus>('/api/me/two-factor') });
}

/** The profile's changes; each answer refreshes the status. */
export function useTwoFactorChange<Body, Answer>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => api<Answer>(`/api/me/two-factor/${path}`, { method: 'POST', body }),
    onSuccess: async () => { await queryClient.invalidateQueries({ queryKey: TWO_FACTOR }); },
  });
}

export const useStartEnrolment = () => useTwoFactorChange<Record<string, never>, TwoFactorEnrolment>('start');

/** A sign-in's enrolment (the operator requires it): the challenge is the cookie. */
export function useEnrolAtSignIn() {
  return useMutation({ mutationFn: () => api<TwoFactorEnrolment>('/api/auth/2fa/enrol', { method: 'POST', body: {} }) });
}

/** The second step: the session starts, written to the session's query as any sign-in. */
export function useSecondStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api<{ user: User; landing: string; recoveryCodes?: string[] }>('/api/auth/2fa/verify', { method: 'POST', body: { code } }),
    onSuccess: async ({ user }) => {
      queryClient.setQueryData(ME, user);
      await queryClient.invalidateQueries({ queryKey: SETTINGS });
    },
  });
}
