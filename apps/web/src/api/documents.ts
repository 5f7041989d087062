import type { DocumentProblemView, DriverDocument, MyDocuments, ReviewDocument } from '@rideway/contract';
import type { DocumentKind, DocumentStatus } from '@rideway/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** Issue 20: the signed-in driver's documents and what keeps it offline. */
export const MY_DOCUMENTS = ['driver', 'documents'] as const;
export const REVIEW_DOCUMENTS = ['documents', 'review'] as const;

export function useMyDocuments(enabled = true) {
  return useQuery({ queryKey: MY_DOCUMENTS, queryFn: () => api<MyDocuments>('/api/driver/documents'), enabled });
}

export function useUploadDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    /** `vehicleId`: the driver's vehicle a registration or insurance is for. */
    mutationFn: ({ kind, image, expiresOn, vehicleId }: { kind: DocumentKind; image: string; expiresOn: string; vehicleId?: string | undefined }) =>
      api<{ document: DriverDocument }>(`/api/driver/documents/${kind}`, { method: 'PUT', body: { image, expiresOn, ...(vehicleId === undefined ? {} : { vehicleId }) } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MY_DOCUMENTS }),
  });
}

/** Documents to review: an admin's all, a fleet admin's its own drivers'. */
export function useReviewDocuments(status: DocumentStatus | undefined) {
  return useQuery({
    queryKey: [...REVIEW_DOCUMENTS, status ?? 'all'],
    queryFn: async () => (await api<{ documents: ReviewDocument[] }>(`/api/documents${status ? `?status=${status}` : ''}`)).documents,
  });
}

export function useReviewDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: string; decision: 'approve' | 'reject'; reason?: string }) =>
      api<{ document: DriverDocument }>(`/api/documents/${id}/${decision}`, { method: 'POST', body: decision === 'reject' ? { reason } : {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: REVIEW_DOCUMENTS }),
  });
}

export type { DocumentProblemView };
