import type { User } from '@rideway/contract';
import { BookingsPage } from '../../features/bookings/BookingsPage';
import { DriverPanel } from '../../features/driver/DriverPanel';

const driverPanel = (me: User) => <DriverPanel me={me} />;

/** The booking list; for a driver it is the home, with the driver feature's panel on top. */
export function BookingsRoute() {
  return <BookingsPage driverPanel={driverPanel} />;
}
