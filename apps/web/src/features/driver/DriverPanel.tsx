import type { DriverOffer, User } from '@rideway/contract';
import DirectionsCarIcon from '@mui/icons-material/DirectionsCarOutlined';
import TimerIcon from '@mui/icons-material/TimerOutlined';
import { Alert, Button, Card, CardActions, CardContent, Chip, FormControlLabel, Paper, Stack, Switch, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { AlertDialog } from '../../components/AlertDialog';
import { useDates } from '../../hooks/use-dates';
import { countdownText, wholeMinutes } from '../../utils/duration';
import { BOOKINGS, useBookingAction, useBookings } from '../../api/bookings';
import { errorKey } from '../../api/client';
import { TASKS, useDeclineOffer, useDriverStatus, useDriverTasks } from '../../api/driver';
import { useLiveTopic } from '../../api/live';
import { useSettings } from '../../api/settings';
import { enableWebPush } from '../../api/push';
import { useMoney } from '../../hooks/use-money';
import { CardListSkeleton } from '../../components/Skeletons';
import { StatusChip } from '../../components/StatusChip';
import { TripRoute } from '../../components/TripRoute';
import { announceOffer } from './offer-alert';
import { DocumentProblemsAlert } from '../../components/DocumentProblemsAlert';
import { cancelledText, useCancelledTrip } from './cancel-alert';
import { useSharing } from '../../hooks/sharing';
import type { SharingState } from '../../hooks/use-share-position';

/** The statuses in which a trip is the driver's current one (section 4's active bookings less NEW). */
const CURRENT = new Set(['ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED', 'PENDING']);
const SHARING_SEVERITY: Record<Exclude<SharingState, 'off'>, 'info' | 'success' | 'error' | 'warning'> = { waiting: 'info', sharing: 'success', denied: 'error', unavailable: 'warning' };

function StatusCard({ me }: { me: User }) {
  const { t } = useTranslation();
  const status = useDriverStatus();
  const online = me.driverActiveStatus;
  const sharing = useSharing().state;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="driver-status-title" sx={{ p: 2 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <div>
          <Typography id="driver-status-title" variant="h6" component="h1">
            {online ? t('driver_online') : t('driver_offline')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {[me.carType, me.vehicleNumber, [me.vehicleMake, me.vehicleModel].filter(Boolean).join(' ')].filter(Boolean).join(' · ')}
          </Typography>
        </div>
        <FormControlLabel
          control={
            <Switch
              checked={online}
              disabled={status.isPending}
              onChange={(_event, checked) => {
                status.mutate(checked);
                // Issue 19: going online is when offers matter, also with the tab closed: ask for notifications now.
                if (checked) void enableWebPush({ ask: true });
              }}
            />
          }
          label={t('go_online')}
        />
      </Stack>
      {sharing !== 'off' && (
        <Alert severity={SHARING_SEVERITY[sharing]} sx={{ mt: 2 }} data-sharing={sharing}>
          {t(`sharing_${sharing}`)}
        </Alert>
      )}
      {!online && <Typography sx={{ mt: 2 }}>{t('offline_no_offers')}</Typography>}
      {/* Issue 20: why going online is refused, with the way to the documents page. */}
      {!online && <DocumentProblemsAlert />}
      {status.isError && <Alert severity="error" sx={{ mt: 2 }} role="alert">{t(errorKey(status.error))}</Alert>}
    </Paper>
  );
}

/** The clock, ticking every second while the component is shown (an offer's countdown). */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => { setNow(Date.now()); }, 1000);
    return () => { clearInterval(timer); };
  }, []);
  return now;
}

/** Issue 17: how long the offer stays open before it goes to the next drivers. */
function OfferCountdown({ expiresAt }: { expiresAt: number }) {
  const { t } = useTranslation();
  const left = expiresAt - useNow();
  return (
    <Chip
      size="small"
      icon={<TimerIcon />}
      color={left <= 5000 ? 'warning' : 'default'}
      label={left > 0 ? t('offer_expires_in', { time: countdownText(left) }) : t('offer_expired')}
      data-testid="offer-countdown"
    />
  );
}

type OfferActions = { onAccept: () => void; onDecline: () => void; busy: boolean };

function OfferCard({ offer, onAccept, onDecline, busy }: { offer: DriverOffer } & OfferActions) {
  const { t } = useTranslation();
  const money = useMoney(offer.currency);
  const dates = useDates();
  const { data: settings } = useSettings();
  const unit = settings?.convert_to_mile ? t('unit_miles') : t('unit_km');
  return (
    <Card variant="outlined" component="article" aria-label={`${t('trip_offer')} ${offer.booking_id}`}>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
            {money(offer.driver_share)} · {offer.carType}
          </Typography>
          {offer.offerExpiresAt !== null && <OfferCountdown expiresAt={offer.offerExpiresAt} />}
        </Stack>
        {offer.pickupLeg && (
          <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', mt: 0.5 }} data-testid="pickup-leg">
            <DirectionsCarIcon fontSize="small" color="primary" aria-hidden />
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {t('pickup_leg', { distance: offer.pickupLeg.distance.toFixed(1), unit, minutes: wholeMinutes(offer.pickupLeg.duration) })}
            </Typography>
          </Stack>
        )}
        <Typography variant="body2" color="text.secondary">
          {offer.bookLater ? `${t('book_later')} · ${dates.dateTime(offer.tripdate)}` : t('book_now')} · {offer.distance.toFixed(1)} {unit}
        </Typography>
        <TripRoute booking={offer} />
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, gap: 1 }}>
        <Button variant="contained" onClick={onAccept} disabled={busy}>
          {t('accept')}
        </Button>
        <Button variant="outlined" color="inherit" onClick={onDecline} disabled={busy}>
          {t('decline_offer')}
        </Button>
      </CardActions>
    </Card>
  );
}

/**
 * Issue 8, the driver's home: online and offline, the position shared while online, the offers
 * as they come (with a sound and a vibration), and the current trip.
 */
export function DriverPanel({ me }: { me: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: settings } = useSettings();
  const tasks = useDriverTasks(me.driverActiveStatus);
  const bookings = useBookings();
  const accept = useBookingAction();
  const decline = useDeclineOffer();
  const [alert, setAlert] = useState<string | null>(null);
  const trips = bookings.data?.filter((booking) => booking.driver === me.id) ?? [];
  // Issue 17: a cancel of the trip the driver is on the way to is told out loud, not just shown.
  const cancel = useCancelledTrip(trips);
  useLiveTopic('user:me', (event) => {
    if (event.event === 'offer' || event.event === 'offer_withdrawn') void queryClient.invalidateQueries({ queryKey: TASKS });
    if (event.event === 'offer') announceOffer(settings?.CarHornRepeat === true);
  });
  const current = trips.find((booking) => CURRENT.has(booking.status));
  const offers = me.driverActiveStatus ? (tasks.data ?? []) : [];
  return (
    <Stack spacing={2} sx={{ mb: 4 }}>
      <StatusCard me={me} />
      {current && (
        <Paper variant="outlined" component="section" aria-labelledby="current-trip-title" sx={{ p: 2 }}>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
            <Typography id="current-trip-title" variant="h6" component="h2">
              {t('current_trip')}
            </Typography>
            <StatusChip status={current.status} />
          </Stack>
          <Typography>{current.pickupAddress} → {current.dropAddress}</Typography>
          <Button component={RouterLink} to={`/bookings/${current.id}`} variant="contained" sx={{ mt: 2 }}>
            {t('open_trip')}
          </Button>
        </Paper>
      )}
      <section aria-labelledby="offers-title">
        <Typography id="offers-title" variant="h6" component="h2" gutterBottom>
          {t('trip_offers')}
        </Typography>
        {me.driverActiveStatus && tasks.isPending && <CardListSkeleton cards={1} />}
        {me.driverActiveStatus && !tasks.isPending && offers.length === 0 && <Typography color="text.secondary">{t('no_tasks')}</Typography>}
        <Stack spacing={2}>
          {offers.map((offer) => (
            <OfferCard
              key={offer.id}
              offer={offer}
              busy={accept.isPending || decline.isPending}
              onDecline={() => {
                decline.mutate(offer.id, { onError: (error) => { setAlert(t(errorKey(error))); } });
              }}
              onAccept={() => {
                accept.mutate(
                  { id: offer.id, action: 'accept' },
                  {
                    onSuccess: (booking) => {
                      void queryClient.invalidateQueries({ queryKey: TASKS });
                      void queryClient.invalidateQueries({ queryKey: BOOKINGS });
                      void navigate(`/bookings/${booking.id}`);
                    },
                    onError: (error) => {
                      setAlert(t(errorKey(error)));
                      void queryClient.invalidateQueries({ queryKey: TASKS });
                    },
                  },
                );
              }}
            />
          ))}
        </Stack>
      </section>
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
      <AlertDialog message={cancel.cancelled && cancelledText(t, cancel.cancelled)} onClose={cancel.dismiss} />
    </Stack>
  );
}
