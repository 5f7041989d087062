import type { User } from '@rideway/contract';
import { BookingForm } from '../../features/booking/BookingForm';
import { LandingPage } from '../../features/public/LandingPage';

const bookingForm = (me: User | null) => <BookingForm me={me} />;

/** The home page with the booking feature's form in its hero. */
export function LandingRoute() {
  return <LandingPage bookingForm={bookingForm} />;
}
