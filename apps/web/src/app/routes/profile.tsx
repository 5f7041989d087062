import type { User } from '@rideway/contract';
import { EarningsCard } from '../../features/driver/EarningsCard';
import { WithdrawCard } from '../../features/driver/WithdrawCard';
import { ProfilePage } from '../../features/profile/ProfilePage';

const driverCards = (me: User) => (
  <>
    <EarningsCard />
    <WithdrawCard me={me} />
  </>
);

/** The own profile; a driver also sees the driver feature's earnings and withdraw cards. */
export function ProfileRoute() {
  return <ProfilePage driverCards={driverCards} />;
}
