import type { DriverEarningRow, DriverOffer, User } from '@rideway/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { ME } from './session';

export const TASKS = ['driver', 'tasks'] as const;

/** The NEW bookings offered to the signed-in driver (DriverTrips), each with its leg to the pickup and its timeout. */
export function useDriverTasks(enabled: boolean) {
  return useQuery({ queryKey: TASKS, queryFn: async () => (await api<{ tasks: DriverOffer[] }>('/api/driver/tasks')).tasks, enabled });
}

/** Declines an offer (issue 17): it leaves the list at once and goes to the next drivers. */
export function useDeclineOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ bookingId: string }>(`/api/bookings/${id}/decline`, { method: 'POST', body: {} }),
    onMutate: (id) => {
      queryClient.setQueryData(TASKS, (offers: DriverOffer[] | undefined) => offers?.filter((offer) => offer.id !== id));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: TASKS }),
  });
}

/** Online or offline (driverActiveStatus); the answer is written into the signed-in user. */
export function useDriverStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (driverActiveStatus: boolean) => api<{ driverActiveStatus: boolean }>('/api/driver/status', { method: 'PATCH', body: { driverActiveStatus } }),
    onSuccess: ({ driverActiveStatus }) => {
      queryClient.setQueryData(ME, (me: User | null | undefined) => (me ? { ...me, driverActiveStatus } : me));
      void queryClient.invalidateQueries({ queryKey: TASKS });
    },
  });
}

/** One position report; `online` says whether the platform counts the driver as online. */
export const reportPosition = (lat: number, lng: number) => api<{ at: number; online: boolean }>('/api/driver/location', { method: 'POST', body: { lat, lng } });

/** The driver's own earnings by month (the driver earnings report, scoped to the caller). */
export function useOwnEarnings() {
  return useQuery({ queryKey: ['reports', 'own-earnings'], queryFn: async () => (await api<{ rows: DriverEarningRow[] }>('/api/reports/driver-earnings')).rows });
}
