import type { AccountExport, PasswordChangeRequest, User } from '@rideway/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { expectLiveSessionEnd } from './live';
import { ME } from './session';

/** Issue 20 point 2: the own photo, password, data and account. */

/** Sets (a data URL) or removes (null) the own photo; the answer is the profile, written to the session's query. */
export function useProfilePhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: string | null) =>
      image === null ? api<{ user: User }>('/api/me/photo', { method: 'DELETE' }) : api<{ user: User }>('/api/me/photo', { method: 'PUT', body: { image } }),
    onSuccess: ({ user }) => { queryClient.setQueryData(ME, user); },
  });
}

export function usePasswordChange() {
  return useMutation({ mutationFn: (body: PasswordChangeRequest) => api<{ ok: true }>('/api/me/password', { method: 'POST', body }) });
}

/** Fetches the own data and hands it to the browser as a JSON file. */
export function useDataExport() {
  return useMutation({
    mutationFn: async () => {
      const data = await api<AccountExport>('/api/me/export');
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `rideway-my-data-${new Date(data.exportedAt).toISOString().slice(0, 10)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      // The click has started the download; the object URL may go once the browser has read it.
      setTimeout(() => { URL.revokeObjectURL(url); }, 10_000);
    },
  });
}

/**
 * Deletes the own account (DELETE /api/users/:id with the own id): the server ends the session;
 * the app moves to `landing` and forgets the user once there (why: useLogout).
 */
export function useDeleteAccount(landing: () => Promise<void> | void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uid: string) => api<undefined>(`/api/users/${encodeURIComponent(uid)}`, { method: 'DELETE' }),
    onMutate: () => { expectLiveSessionEnd(true); },
    onSuccess: async () => {
      await landing();
      queryClient.clear();
      queryClient.setQueryData(ME, null);
    },
    onSettled: () => { expectLiveSessionEnd(false); },
  });
}
