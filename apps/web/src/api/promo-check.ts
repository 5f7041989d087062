import type { PromoCheck, PromoCheckRequest } from '@rideway/contract';
import { api } from './client';

/**
 * Issue 17, the estimate dialog's Apply: the server prices the trip and answers the code's
 * discount and the total for this rider, or the promo key that refuses it. Nothing is used up.
 */
export const requestPromoCheck = (request: PromoCheckRequest) => api<PromoCheck>('/api/estimates/promo', { method: 'POST', body: request });
