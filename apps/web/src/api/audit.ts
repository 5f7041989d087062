import type { AuditLogPage, AuditQuery } from '@rideway/contract';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from './client';

/** The filters the page sends: the query without the page's own cursor and size. */
export type AuditFilters = Omit<AuditQuery, 'before' | 'limit'>;

/** GET /api/audit with only the filters chosen, and the page's cursor. */
export function auditPath(filters: AuditFilters, before?: number): string {
  const entries = Object.entries({ ...filters, before }).filter((entry): entry is [string, string | number] => (typeof entry[1] === 'string' && entry[1] !== '') || typeof entry[1] === 'number');
  const query = new URLSearchParams(entries.map(([key, value]) => [key, String(value)]));
  const text = query.toString();
  return text ? `/api/audit?${text}` : '/api/audit';
}

/**
 * Issue 23 point 8: the audit log, newest first, as the admin filtered it; older pages are asked
 * for with the last page's cursor (`nextBefore`) and joined below.
 */
export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) => api<AuditLogPage>(auditPath(filters, pageParam)),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    // A new filter keeps the old rows in view until its own arrive.
    placeholderData: keepPreviousData,
  });
}
