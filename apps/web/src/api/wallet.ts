import type { WalletHistoryEntry, Withdraw, WithdrawRequest } from '@rideway/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, newIdempotencyKey } from './client';

const WALLET = ['wallet'] as const;
export const WITHDRAWS = ['withdraws'] as const;

/** The own wallet: balance and history. */
export function useWallet() {
  return useQuery({ queryKey: WALLET, queryFn: () => api<{ walletBalance: number; walletHistory: WalletHistoryEntry[] }>('/api/wallet') });
}

/** Withdraw requests: a driver's own, or every one for an admin. */
export function useWithdraws() {
  return useQuery({ queryKey: WITHDRAWS, queryFn: async () => (await api<{ withdraws: Withdraw[] }>('/api/withdraws')).withdraws });
}

export type { WithdrawRequest } from '@rideway/contract';

/** A withdraw request: the amount leaves the wallet at once and waits for an admin to pay it out. */
export function useRequestWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: WithdrawRequest) => api<{ withdraw: Withdraw }>('/api/withdraws', { method: 'POST', body: request, idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: WITHDRAWS });
      void queryClient.invalidateQueries({ queryKey: WALLET });
    },
  });
}
