import type { ReviewVehicle, Vehicle, VehicleAdd } from '@rideway/contract';
import type { DocumentStatus } from '@rideway/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { MY_DOCUMENTS } from './documents';

/** Issue 20 point 3: the signed-in driver's vehicles, and those an admin or fleet admin reviews. */
export const MY_VEHICLES = ['driver', 'vehicles'] as const;
export const REVIEW_VEHICLES = ['vehicles', 'review'] as const;

export function useMyVehicles() {
  return useQuery({ queryKey: MY_VEHICLES, queryFn: async () => (await api<{ vehicles: Vehicle[] }>('/api/driver/vehicles')).vehicles });
}

/** Adding, switching and deleting change the list and, for the active vehicle, what keeps the driver offline. */
function useVehicleChange<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: MY_VEHICLES });
      await queryClient.invalidateQueries({ queryKey: MY_DOCUMENTS });
    },
  });
}

export const useAddVehicle = () => useVehicleChange((body: VehicleAdd) => api<{ vehicle: Vehicle }>('/api/driver/vehicles', { method: 'POST', body }));
export const useActivateVehicle = () => useVehicleChange((id: string) => api<{ vehicle: Vehicle }>(`/api/driver/vehicles/${id}/activate`, { method: 'POST' }));
export const useDeleteVehicle = () => useVehicleChange((id: string) => api<undefined>(`/api/driver/vehicles/${id}`, { method: 'DELETE' }));

/** Vehicles to review: an admin's all, a fleet admin's its own drivers'. */
export function useReviewVehicles(status: DocumentStatus | undefined) {
  return useQuery({
    queryKey: [...REVIEW_VEHICLES, status ?? 'all'],
    queryFn: async () => (await api<{ vehicles: ReviewVehicle[] }>(`/api/vehicles${status ? `?status=${status}` : ''}`)).vehicles,
  });
}

export function useVehicleDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: string; decision: 'approve' | 'reject'; reason?: string }) =>
      api<{ vehicle: Vehicle }>(`/api/vehicles/${id}/${decision}`, { method: 'POST', body: decision === 'reject' ? { reason } : {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: REVIEW_VEHICLES }),
  });
}
