import type { User } from '@rideway/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

export type ListedType = 'rider' | 'driver' | 'fleetadmin';

/** GET /api/users: riders, drivers or fleet admins (all three without a type); a fleet admin gets its drivers. */
export function useUsers(usertype?: ListedType, enabled = true) {
  return useQuery({
    queryKey: ['users', usertype ?? 'all'],
    queryFn: async () => (await api<{ users: User[] }>(usertype ? `/api/users?usertype=${usertype}` : '/api/users')).users,
    enabled,
  });
}
