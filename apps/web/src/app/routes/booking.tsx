import type { Booking } from '@rideway/contract';
import { DriverTripPanel } from '../../features/driver/DriverTripPanel';
import { BookingPage } from '../../features/trip/BookingPage';

const driverTripPanel = (booking: Booking) => <DriverTripPanel booking={booking} />;

/** One booking, live; the trip's driver runs it from the driver feature's panel. */
export function BookingRoute() {
  return <BookingPage driverTripPanel={driverTripPanel} />;
}
