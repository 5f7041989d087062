import { Container } from '@mui/material';
import { useMe } from '../../api/session';
import { BookingForm } from './BookingForm';

/** Section 2 /addbookings: the admin books on behalf of a rider, with the rider's own book flow. */
export function AddBookingPage() {
  const { data: me } = useMe();
  return (
    <Container maxWidth="sm" sx={{ py: 3 }}>
      <BookingForm me={me ?? null} form="admin" />
    </Container>
  );
}
