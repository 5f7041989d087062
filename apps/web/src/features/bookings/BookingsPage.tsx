import { BOOKING_LIST_LIMIT, type Booking, type User } from '@rideway/contract';
import { Button, Card, CardActions, CardContent, Container, LinearProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { BOOKINGS, useBookings } from '../../api/bookings';
import { errorKey } from '../../api/client';
import { CardListSkeleton } from '../../components/Skeletons';
import { VirtualList } from '../../components/VirtualList';
import { useLiveTopic } from '../../api/live';
import { useMe } from '../../api/session';
import { useMoney } from '../../hooks/use-money';
import { BookingActions } from '../../components/booking-actions/BookingActions';
import { StatusChip } from '../../components/StatusChip';
import { TripRoute } from '../../components/TripRoute';
import { FareBreakdown } from '../../components/FareBreakdown';
import { TripRating } from '../../components/TripRating';
import { useDates } from '../../hooks/use-dates';
import { BookingFilters, filtersOf, NO_FILTERS, type FilterForm } from './BookingFilters';
import { BookingParties } from './BookingParties';
import { SearchState } from './SearchState';

function BookingCard({ booking, me }: { booking: Booking; me: User }) {
  const { t } = useTranslation();
  const money = useMoney(booking.currency);
  const dates = useDates();
  return (
    <Card variant="outlined" component="article" aria-label={`${t('booking_id')} ${booking.booking_id}`} data-booking={booking.id}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
            {booking.booking_id}
          </Typography>
          <StatusChip status={booking.status} />
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {dates.dateTime(booking.tripdate)} · {booking.carType}
          {booking.bookLater ? ` · ${t('book_later')}` : ''}
        </Typography>
        {(me.usertype === 'admin' || me.usertype === 'fleetadmin') && <BookingParties booking={booking} />}
        {me.usertype === 'rider' && <SearchState booking={booking} me={me} />}
        <TripRoute booking={booking} />
        <Typography sx={{ mt: 1, fontWeight: 600 }}>{money(booking.customer_paid || booking.estimate)}</Typography>
        <FareBreakdown booking={booking} folded />
        <TripRating booking={booking} label={t(me.usertype === 'rider' ? 'your_rating' : 'rider_rating')} />
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}>
        <BookingActions booking={booking} me={me} />
        {me.usertype === 'admin' && (booking.status === 'PAID' || booking.status === 'COMPLETE') && booking.payment_mode !== 'cash' && (
          // The refund form is on the booking's page, beside its payments and refunds (issue 18).
          <Button component={RouterLink} to={`/bookings/${booking.id}`} size="small" color="warning">
            {t('refund')}
          </Button>
        )}
        <Button component={RouterLink} to={`/bookings/${booking.id}`} size="small">
          {t('open_booking')}
        </Button>
      </CardActions>
    </Card>
  );
}

/**
 * Section 2's booking list: the caller's bookings, newest first, with their actions. A driver's
 * home (the driver feature's panel, passed in by the app) comes above its history.
 */
export function BookingsPage({ driverPanel }: { driverPanel: (me: User) => ReactNode }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  // Issue 17: an admin or fleet admin searches and filters the history, on the server.
  const manager = me?.usertype === 'admin' || me?.usertype === 'fleetadmin';
  const [filters, setFilters] = useState<FilterForm>(NO_FILTERS);
  const bookings = useBookings(manager ? filtersOf(filters) : undefined);
  const queryClient = useQueryClient();
  // Every change to one's own booking comes with a notice; the list then refreshes.
  useLiveTopic('user:me', (event) => {
    if (event.event === 'notice') void queryClient.invalidateQueries({ queryKey: BOOKINGS });
  });
  if (!me) return null;
  // A driver's offers are listed above with their Accept button; the history holds its own trips.
  const history = me.usertype === 'driver' ? bookings.data?.filter((booking) => booking.driver === me.id) : bookings.data;
  return (
    <Container maxWidth="md" sx={{ py: 3 }}>
      {me.usertype === 'driver' && driverPanel(me)}
      <Typography variant={me.usertype === 'driver' ? 'h6' : 'h5'} component={me.usertype === 'driver' ? 'h2' : 'h1'} gutterBottom>
        {t('booking_history')}
      </Typography>
      {manager && <BookingFilters value={filters} onChange={setFilters} />}
      {/* The last list stays while the search's answer comes; this says it is on its way. */}
      {bookings.isPlaceholderData && <LinearProgress aria-label={t('loading')} data-testid="bookings-updating" sx={{ mb: 2 }} />}
      {bookings.isPending && <CardListSkeleton />}
      {bookings.isError && <Typography color="error">{t(errorKey(bookings.error))}</Typography>}
      {history?.length === 0 && <Typography>{t('no_bookings')}</Typography>}
      {manager && history && history.length >= BOOKING_LIST_LIMIT && <Typography color="text.secondary" sx={{ mb: 2 }}>{t('bookings_newest_shown', { count: BOOKING_LIST_LIMIT })}</Typography>}
      {history && <VirtualList items={history} itemKey={(booking) => booking.id} render={(booking) => <BookingCard booking={booking} me={me} />} />}
    </Container>
  );
}
