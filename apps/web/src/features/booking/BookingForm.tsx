import type { User } from '@rideway/contract';
import { fromDateTimeLocal, toDateTimeLocal, type Place } from '@rideway/domain';
import { Button, FormControl, InputLabel, MenuItem, Paper, Select, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useCallback, useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AlertDialog, type AlertAction } from '../../components/AlertDialog';
import { errorKey } from '../../api/client';
import { useCarTypeEstimates } from '../../api/bookings';
import { useCarTypes } from '../../api/catalogue';
import { useSettings } from '../../api/settings';
import { CarTypeSelect } from '../../components/CarTypeSelect';
import { ChoiceDialog } from './ChoiceDialog';
import { EstimateDialog } from './EstimateDialog';
import { PaymentDialog } from '../../components/PaymentDialog';
import { PlaceSearch } from '../../components/PlaceSearch';
import { outsideServiceArea, ServiceAreaNotice } from './ServiceAreaNotice';
import { UserSelect } from '../../components/UserSelect';
import { useMoney } from '../../hooks/use-money';
import { TripTimeField } from './TripTimeField';
import { useBookFlow } from './use-book-flow';
import { BookingMapPlaceholder } from './BookingFormPlaceholder';

// Leaflet loads with the map, not with the landing page.
const BookingMap = lazy(() => import('./BookingMap'));

/**
 * Section 2's booking forms and the book flow's dialogs (section 4): the rider's on the home page,
 * and the admin's at /addbookings, which also names the rider it books for.
 */
export function BookingForm({ me, form = 'rider' }: { me: User | null; form?: 'rider' | 'admin' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const bookingTypeLabel = useId();
  const { data: settings } = useSettings();
  const carTypes = useCarTypes();
  const [pickup, setPickup] = useState<Place | null>(null);
  const [drop, setDrop] = useState<Place | null>(null);
  const [carType, setCarType] = useState('');
  const [customer, setCustomer] = useState('');
  const [bookLater, setBookLater] = useState(false);
  // Section 4: the date-time defaults to the current time (null until changed). Issue 17: it is the
  // city's clock, the operator's time zone, wherever the browser is (docs/decisions.md).
  const zone = settings?.timezone;
  const [openedAt] = useState(() => Date.now());
  const [tripdate, setTripdate] = useState<string | null>(null);
  const tripdateText = tripdate ?? toDateTimeLocal(openedAt, zone);
  const [alert, setAlert] = useState<{ message: string; action?: AlertAction } | null>(null);
  const failed = useCallback((key: string) => {
    setAlert(
      key === 'must_login'
        ? { message: t(key), action: { label: t('sign_in'), onClick: () => { void navigate('/login'); } } }
        : { message: t(key) },
    );
  }, [t, navigate]);
  const failedCall = useCallback((error: unknown) => { failed(errorKey(error)); }, [failed]);
  // Issue 17, point 4: every car type's price once both places are set, for those who may book
  // (place search and estimates are behind sign-in, section 7).
  const money = useMoney();
  const mayBook = me?.usertype === 'rider' || me?.usertype === 'admin';
  const estimates = useCarTypeEstimates(pickup, drop, mayBook && !outsideServiceArea(pickup, settings));
  const prices = estimates.data ? new Map(estimates.data.estimates.map((row) => [row.carType, money(row.estimateFare)])) : undefined;
  // A pickup outside the service area is already said under the pickup (ServiceAreaNotice).
  const pricesError = estimates.isError && errorKey(estimates.error) !== 'outside_service_area' ? t(errorKey(estimates.error)) : undefined;
  const pricesNote = !mayBook || !pickup || !drop ? undefined : estimates.isFetching ? t('car_prices_loading') : pricesError;
  const flow = useBookFlow({ form, user: me, carTypes: carTypes.data ?? [], delivery: settings?.appcat === 'delivery', onFailure: failed });
  const { state } = flow;

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    // Issue 16, point 6: a pickup outside the service area is answered here, without asking the server.
    if (outsideServiceArea(pickup, settings)) {
      failed('outside_service_area');
      return;
    }
    flow.book({ pickup, drop, carType, bookLater, tripdate: bookLater ? (fromDateTimeLocal(tripdateText, zone) ?? Number.NaN) : Date.now(), ...(form === 'admin' ? { customer } : {}) });
  };
  const title = form === 'admin' ? t('book_for_rider') : t('book_a_ride');
  return (
    // noValidate: the trip time's `min` shows the earliest time in the picker, while Book's refusals
    // stay section 8's Alert dialog (the browser's own bubble would stop the submit silently).
    <Paper component="form" noValidate onSubmit={submit} aria-label={title} sx={{ p: { xs: 2, md: 3 }, color: 'text.primary' }}>
      <Typography variant="h6" component={form === 'admin' ? 'h1' : 'h2'} sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack spacing={2}>
        {form === 'admin' && <UserSelect usertype="rider" label={t('rider')} value={customer} onChange={setCustomer} />}
        <PlaceSearch label={t('pickup_location')} value={pickup} onChange={setPickup} enabled={me !== null} onError={failedCall} />
        <ServiceAreaNotice pickup={pickup} />
        <PlaceSearch label={t('drop_location')} value={drop} onChange={setDrop} enabled={me !== null} onError={failedCall} />
        {me !== null && (
          <Suspense fallback={<BookingMapPlaceholder />}>
            <BookingMap pickup={pickup} drop={drop} onPickup={setPickup} onDrop={setDrop} onError={failedCall} />
          </Suspense>
        )}
        <CarTypeSelect carTypes={carTypes.data ?? []} value={carType} onChange={setCarType} prices={prices} note={pricesNote} />
        {/* One above the other: the form is about 400 px wide beside the hero, too narrow for the date-time's value and rule beside the type. */}
        <Stack spacing={2}>
          <FormControl fullWidth>
            <InputLabel id={bookingTypeLabel}>{t('booking_type')}</InputLabel>
            <Select labelId={bookingTypeLabel} label={t('booking_type')} value={bookLater ? 'later' : 'now'} onChange={(event) => { setBookLater(event.target.value === 'later'); }}>
              <MenuItem value="now">{t('book_now')}</MenuItem>
              <MenuItem value="later">{t('book_later')}</MenuItem>
            </Select>
          </FormControl>
          {bookLater && <TripTimeField value={tripdateText} onChange={setTripdate} zone={zone} changed={tripdate !== null} />}
        </Stack>
        <Button type="submit" variant="contained" size="large" loading={flow.busy}>
          {t('book')}
        </Button>
      </Stack>
      {state.step === 'choosing' && <ChoiceDialog carType={state.carType} onChoose={flow.choose} onCancel={flow.reset} />}
      {state.step === 'estimated' && <EstimateDialog estimate={state.estimate} busy={flow.busy} onConfirm={flow.confirm} onCancel={flow.reset} onInvalid={flow.invalid} onApplyPromo={flow.checkPromo} />}
      {state.step === 'paying' && <PaymentDialog bookingId={state.booking.id} onClose={flow.reset} />}
      <AlertDialog message={alert?.message ?? null} action={alert?.action} onClose={() => { setAlert(null); }} />
      <AlertDialog
        message={state.step === 'booked' && !alert ? `${t('booking_success')} ${state.booking.booking_id}` : null}
        onClose={() => {
          flow.reset();
          void navigate('/bookings');
        }}
      />
    </Paper>
  );
}
