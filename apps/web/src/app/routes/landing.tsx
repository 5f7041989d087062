import type { User } from '@rideway/contract';
import { lazy } from 'react';
import { BookingFormPlaceholder } from '../../features/booking/BookingFormPlaceholder';
import { LandingPage } from '../../features/public/LandingPage';

// Issue 21 point 5: the form (its place search, pickers and payment dialog) is a chunk of its own,
// so a phone paints the hero before it has downloaded and run them; the page holds its place.
const BookingForm = lazy(async () => ({ default: (await import('../../features/booking/BookingForm')).BookingForm }));

const bookingForm = (me: User | null) => <BookingForm me={me} />;
const formPlaceholder = (signedIn: boolean) => <BookingFormPlaceholder signedIn={signedIn} />;

/** The home page with the booking feature's form in its hero. */
export function LandingRoute() {
  return <LandingPage bookingForm={bookingForm} formPlaceholder={formPlaceholder} />;
}
