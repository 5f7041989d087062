import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/**
 * Add, edit and delete on one admin collection; each refreshes the collection's query, so every
 * screen that shows it (the booking form's car types, say) sees the change.
 */
export function useCollection<Row extends { id: string }, Body>(path: string, queryKey: readonly string[], answerKey: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const add = useMutation({ mutationFn: async (body: Body) => (await api<Record<string, Row>>(path, { method: 'POST', body }))[answerKey] as Row, onSuccess: refresh });
  const edit = useMutation({ mutationFn: async ({ id, body }: { id: string; body: Partial<Body> }) => (await api<Record<string, Row>>(`${path}/${id}`, { method: 'PATCH', body }))[answerKey] as Row, onSuccess: refresh });
  const remove = useMutation({ mutationFn: (id: string) => api<undefined>(`${path}/${id}`, { method: 'DELETE' }), onSuccess: refresh });
  return { add, edit, remove };
}
