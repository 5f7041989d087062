import type { Booking, TrackingEntry, User } from '@rideway/contract';
import { isChatOpen, isLiveTrackedStatus, type LatLng } from '@rideway/domain';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Container, Grid, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { addChatMessage, storeBooking, useBooking, useTracking } from '../../api/bookings';
import { errorKey } from '../../api/client';
import { useLiveTopic } from '../../api/live';
import { useMe } from '../../api/session';
import { useMoney } from '../../hooks/use-money';
import { BookingActions } from '../../components/booking-actions/BookingActions';
import { useDates } from '../../hooks/use-dates';
import { StatusChip } from '../../components/StatusChip';
import { ParcelPhotos } from './ParcelPhotos';
import { PaymentPanel } from './PaymentPanel';
import { useSharing } from '../../hooks/sharing';
import { ChatPanel } from './ChatPanel';
import { RatingPanel } from './RatingPanel';
import { DriverEta } from './DriverEta';
import { DriverCard } from './DriverCard';
import { RiderCard } from './RiderCard';
import { FareBreakdown } from '../../components/FareBreakdown';

const TripMap = lazy(() => import('./TripMap'));

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ textAlign: 'end' }}>{value}</Typography>
    </Stack>
  );
}

/** What the rider is told while the trip runs: the OTP for the driver, and what to pay in cash. */
function RiderNotes({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const money = useMoney(booking.currency);
  return (
    <>
      {booking.otp !== false && (booking.status === 'ACCEPTED' || booking.status === 'ARRIVED') && (
        <Alert severity="info" data-testid="trip-otp">
          {t('tell_driver_otp')} <strong>{booking.otp}</strong>
        </Alert>
      )}
      {booking.payment_mode === 'cash' && (booking.status === 'REACHED' || booking.status === 'PENDING') && (
        <Alert severity="warning">{t('pay_cash_to_driver', { amount: money(booking.payableAmount || booking.customer_paid) })}</Alert>
      )}
    </>
  );
}

function TripDetails({ booking, me }: { booking: Booking; me: User }) {
  const { t } = useTranslation();
  const money = useMoney(booking.currency);
  const dates = useDates();
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={1}>
          <Detail label={t('trip_date')} value={dates.dateTime(booking.tripdate)} />
          <Detail label={t('vehicle_type')} value={booking.carType} />
          <Detail label={t('pickup_location')} value={booking.pickupAddress} />
          <Detail label={t('drop_location')} value={booking.dropAddress} />
          <Detail label={t('payment_mode')} value={t(`payment_${booking.payment_mode}`)} />
          <Detail label={t('estimate_fare')} value={money(booking.customer_paid || booking.estimate, true)} />
          {booking.reason && <Detail label={t('cancel_reason_title')} value={booking.reason} />}
        </Stack>
        <Box sx={{ mt: 2 }}>
          <BookingActions booking={booking} me={me} />
        </Box>
        <Box sx={{ mt: 2 }}>
          <FareBreakdown booking={booking} />
        </Box>
        {(me.usertype === 'rider' || me.usertype === 'admin') && <PaymentPanel booking={booking} me={me} />}
      </CardContent>
    </Card>
  );
}

/**
 * One booking, live: its status, the driver on the map, chat, the OTP, payment and rating. The
 * trip's driver gets its controls from the driver feature, passed in by the app.
 */
export function BookingPage({ driverTripPanel }: { driverTripPanel: (booking: Booking) => ReactNode }) {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const { data: me } = useMe();
  const booking = useBooking(id);
  const tracking = useTracking(id);
  const queryClient = useQueryClient();
  const ownPosition = useSharing().position;
  const [driverAt, setDriverAt] = useState<LatLng | null>(null);
  useLiveTopic(`booking:${id}`, (event) => {
    if (event.event === 'booking') storeBooking(queryClient, event.data);
  });
  useLiveTopic(`tracking:${id}`, (event) => {
    const position = event.data as LatLng;
    setDriverAt({ lat: position.lat, lng: position.lng });
    if (event.event === 'point') queryClient.setQueryData(['tracking', id], (points: TrackingEntry[] | undefined) => [...(points ?? []), event.data as TrackingEntry]);
  });
  const chatParty = me?.usertype === 'rider' || me?.usertype === 'driver';
  // The chat topic opens to the rider once a driver has the trip.
  useLiveTopic(chatParty && booking.data?.driver ? `chat:${id}` : null, (event) => {
    if (event.event === 'message') addChatMessage(queryClient, id, event.data);
  });
  const route = useMemo(() => (tracking.data ?? []).map(({ lat, lng }) => ({ lat, lng })), [tracking.data]);
  const labels = useMemo(() => ({ pickup: t('pickup_location'), drop: t('drop_location'), driver: t('driver_position') }), [t]);

  if (!me) return null;
  if (booking.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (booking.isError) {
    return (
      <Container sx={{ py: 3 }}>
        <Alert severity="error">{t(errorKey(booking.error))}</Alert>
      </Container>
    );
  }
  const trip = booking.data;
  // The trip's own driver sees itself from the phone's fix at once, before the server echoes it.
  const ownFix = me.usertype === 'driver' && trip.driver === me.id && isLiveTrackedStatus(trip.status) ? ownPosition : null;
  const driver = ownFix ?? driverAt ?? route.at(-1) ?? null;
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <Button component={RouterLink} to="/bookings" size="small">
          {t('back')}
        </Button>
        <Typography variant="h5" component="h1">
          {t('booking_id')} {trip.booking_id}
        </Typography>
        <StatusChip status={trip.status} />
      </Stack>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={2}>
            {me.usertype === 'driver' && trip.driver === me.id && <RiderCard booking={trip} />}
            {me.usertype === 'driver' && trip.driver === me.id && driverTripPanel(trip)}
            {me.usertype === 'rider' && <RiderNotes booking={trip} />}
            {me.usertype === 'rider' && <DriverEta booking={trip} driverAt={driverAt} />}
            {trip.driver && me.usertype !== 'driver' && <DriverCard booking={trip} />}
            {isLiveTrackedStatus(trip.status) && !driver && <Alert severity="info">{t('waiting_for_driver_position')}</Alert>}
            <Suspense fallback={<CircularProgress aria-label={t('loading')} />}>
              <TripMap pickup={trip.pickup} drop={trip.drop} driver={driver} route={route} labels={labels} />
            </Suspense>
            <TripDetails booking={trip} me={me} />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={2}>
            {/* The trip's driver takes the photos in its own panel until the parcel is delivered. */}
            {!(me.usertype === 'driver' && isLiveTrackedStatus(trip.status)) && <ParcelPhotos booking={trip} />}
            {(me.usertype === 'rider' || me.usertype === 'admin') && (trip.status === 'PAID' || trip.status === 'COMPLETE') && <RatingPanel booking={trip} viewer={me.usertype} />}
            {chatParty && trip.driver && <ChatPanel bookingId={trip.id} me={me} open={isChatOpen(trip.status)} />}
          </Stack>
        </Grid>
      </Grid>
    </Container>
  );
}
