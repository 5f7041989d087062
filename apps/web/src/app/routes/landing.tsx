import type { User } from '@rideway/contract';
import { lazy } from 'react';
import { carTypesQuery } from '../../api/catalogue';
import { savedPlacesQuery } from '../../api/places';
import { ME } from '../../api/session';
import { BookingFormPlaceholder } from '../../features/booking/BookingFormPlaceholder';
import { LandingPage } from '../../features/public/LandingPage';
import { queryClient } from '../query-client';

// Issue 21 point 5: the form (its place search, pickers and payment dialog) is a chunk of its own,
// so a phone paints the hero before it has downloaded and run them; the page holds its place.
// Its car types, and a rider's saved places (its place fields offer them), are asked for while
// the chunk downloads, so the form's first render has them: asked for by the form itself, their
// answers drew the form again, in one long task on a phone (a query's answer re-renders at once,
// not in the background). A failed ask leaves the form's own queries to ask again.
const BookingForm = lazy(async () => {
  const rider = queryClient.getQueryData<User | null>(ME)?.usertype === 'rider';
  const [{ BookingForm: Form }] = await Promise.all([
    import('../../features/booking/BookingForm'),
    queryClient.query(carTypesQuery).catch(() => undefined),
    rider ? queryClient.query(savedPlacesQuery).catch(() => undefined) : undefined,
  ]);
  return { default: Form };
});

const bookingForm = (me: User | null) => <BookingForm me={me} />;
const formPlaceholder = (signedIn: boolean) => <BookingFormPlaceholder signedIn={signedIn} />;

/** The home page with the booking feature's form in its hero. */
export function LandingRoute() {
  return <LandingPage bookingForm={bookingForm} formPlaceholder={formPlaceholder} />;
}
