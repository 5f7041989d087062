import type { DocumentKind, DocumentProblemKind, DocumentStatus } from '@rideway/domain';

/** The text keys of each kind, status and problem (issue 20). */
export const KIND_LABELS: Record<DocumentKind, string> = {
  licence_front: 'document_kind_licence_front',
  licence_back: 'document_kind_licence_back',
  id: 'document_kind_id',
  registration: 'document_kind_registration',
  insurance: 'document_kind_insurance',
};
export const STATUS_LABELS: Record<DocumentStatus, string> = { pending: 'document_status_pending', approved: 'document_status_approved', rejected: 'document_status_rejected' };
export const STATUS_COLOURS = { pending: 'warning', approved: 'success', rejected: 'error' } as const;
export const PROBLEM_LABELS: Record<DocumentProblemKind, string> = {
  missing: 'document_problem_missing',
  pending: 'document_problem_pending',
  rejected: 'document_problem_rejected',
  expired: 'document_problem_expired',
};
