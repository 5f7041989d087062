import type { Booking } from '@rideway/contract';
import DirectionsIcon from '@mui/icons-material/NavigationOutlined';
import PhotoCameraIcon from '@mui/icons-material/PhotoCameraOutlined';
import { Alert, Box, Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../../components/AlertDialog';
import { ImagePicker } from '../../components/ImagePicker';
import { scaledPhoto } from '../../utils/images';
import { useBookingAction } from '../../api/bookings';
import { errorKey } from '../../api/client';
import { useSettings } from '../../api/settings';
import { BOOKING_OTP_DIGITS, PARCEL_PHOTO_MAX_SIDE_PX } from '../../config/ui-constants';
import { useMoney } from '../../hooks/use-money';
import { telHref } from '../../utils/tel';
import { cancelledText, useCancelledTrip } from './cancel-alert';

/**
 * The device's map app with driving directions: the universal maps link opens the installed app
 * on a phone and the maps site on a computer.
 */
const directionsUrl = (to: { lat: number; lng: number }): string =>
  `https://www.google.com/maps/dir/?api=1&destination=${to.lat.toFixed(6)},${to.lng.toFixed(6)}&travelmode=driving`;

type Step = 'arrive' | 'start' | 'reach' | 'pay';

/** The statuses in which the courier needs the parcel's details: from accepting it to handing it over. */
const CARRYING = new Set<Booking['status']>(['ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED']);

/**
 * Issue 17, a delivery once accepted: whom it goes to (the phone a tap to call), what to do at
 * the pickup and at the drop, and the parcel's type and option (spec section 3's delivery fields).
 */
function DeliveryDetails({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const phone = booking.deliveryPersonPhone ? telHref(booking.deliveryPersonPhone) : undefined;
  const rows: [string, ReactNode][] = [
    [t('deliveryPerson'), booking.deliveryPerson],
    [t('deliveryPersonPhone'), phone ? <Link href={phone}>{booking.deliveryPersonPhone}</Link> : booking.deliveryPersonPhone],
    [t('pickUpInstructions'), booking.pickUpInstructions],
    [t('deliveryInstructions'), booking.deliveryInstructions],
    [t('parcel_type'), booking.parcelTypeSelected?.description],
    [t('parcel_option'), booking.optionSelected?.description],
  ];
  return (
    <Box component="section" aria-labelledby="delivery-details-title" data-testid="delivery-details" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
      <Typography id="delivery-details-title" variant="subtitle2" component="h3" gutterBottom>
        {t('delivery_details')}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(7rem, auto) 1fr', columnGap: 2, rowGap: 0.5 }}>
        {rows
          .filter(([, value]) => value !== undefined && value !== '')
          .map(([label, value]) => (
            <Box key={label} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {value}
              </Typography>
            </Box>
          ))}
      </Box>
    </Box>
  );
}

/** How the trip is settled at the drop, as the driver sees it (section 4 payment). */
function settlement(booking: Booking): { text: 'trip_prepaid' | 'collect_cash' | 'paid_by_wallet' | 'rider_pays_card'; payment_mode: Booking['payment_mode'] } {
  if (booking.prepaid) return { text: 'trip_prepaid', payment_mode: booking.payment_mode };
  if (booking.payment_mode === 'cash') return { text: 'collect_cash', payment_mode: 'cash' };
  if (booking.payment_mode === 'wallet') return { text: 'paid_by_wallet', payment_mode: 'wallet' };
  return { text: 'rider_pays_card', payment_mode: 'card' };
}

/**
 * Issue 8, the trip for its driver: directions, arrived, start (with the rider's code when
 * otp_secure), reached, and the payment; in delivery mode the parcel's photos come first.
 */
export function DriverTripPanel({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const money = useMoney(booking.currency);
  const { data: settings } = useSettings();
  const action = useBookingAction();
  const [otp, setOtp] = useState('');
  const [askOtp, setAskOtp] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  // Issue 17: a cancel while the driver is on the way is told out loud, not just shown.
  const cancel = useCancelledTrip([booking]);
  // Section 5: every delivery booking names its recipient.
  const delivery = Boolean(booking.deliveryPerson);
  const run = (step: Step | 'photos', body?: Record<string, unknown>) => {
    action.mutate(
      { id: booking.id, action: step, ...(body ? { body } : {}) },
      {
        onError: (error) => {
          const key = errorKey(error);
          if (key === 'otp_mismatch') setAskOtp(true);
          setAlert(t(key));
        },
      },
    );
  };
  const photo = (kind: 'pickup' | 'deliver') => {
    const label = t(kind === 'pickup' ? 'pickup_photo' : 'deliver_photo');
    return (
      <ImagePicker
        label={label}
        image={kind === 'pickup' ? booking.pickup_image : booking.deliver_image}
        imageAlt={label}
        emptyText={t('no_photo_yet')}
        read={(file) => scaledPhoto(file, PARCEL_PHOTO_MAX_SIDE_PX)}
        onImage={(image) => { run('photos', { kind, image }); }}
        onUnreadable={() => { setAlert(t('photo_unreadable')); }}
        camera
        icon={<PhotoCameraIcon />}
        busy={action.isPending}
        previewSx={{ width: 72, height: 72, objectFit: 'cover', borderRadius: 1, border: 1, borderColor: 'divider' }}
      />
    );
  };
  const towardsPickup = booking.status === 'ACCEPTED' || booking.status === 'ARRIVED';
  const paying = settlement(booking);
  const due = booking.payableAmount || booking.customer_paid;
  const needsOtp = askOtp || settings?.otp_secure === true;
  const button = (step: Step, label: string, disabled = false) => (
    <Button variant="contained" size="large" disabled={disabled || action.isPending} onClick={() => { run(step, step === 'start' && needsOtp ? { otp: otp.trim() } : step === 'pay' ? { payment_mode: paying.payment_mode } : undefined); }}>
      {label}
    </Button>
  );
  return (
    <Paper variant="outlined" component="section" aria-labelledby="driver-trip-title" sx={{ p: 2 }}>
      <Typography id="driver-trip-title" variant="h6" component="h2" gutterBottom>
        {t('your_trip')}
      </Typography>
      <Stack spacing={2}>
        {(towardsPickup || booking.status === 'STARTED') && (
          <Button
            href={directionsUrl(towardsPickup ? booking.pickup : booking.drop)}
            target="_blank"
            rel="noopener noreferrer"
            variant="outlined"
            startIcon={<DirectionsIcon />}
          >
            {t(towardsPickup ? 'directions_to_pickup' : 'directions_to_drop')}
          </Button>
        )}
        {booking.customer_contact && (towardsPickup || booking.status === 'STARTED') && <Button href={`tel:${booking.customer_contact.replace(/(?!^\+)\D/g, '')}`} variant="outlined">{t('call_rider', { name: booking.customer_name })}</Button>}
        {delivery && CARRYING.has(booking.status) && <DeliveryDetails booking={booking} />}
        {delivery && towardsPickup && photo('pickup')}
        {booking.status === 'ACCEPTED' && button('arrive', t('arrived'))}
        {booking.status === 'ARRIVED' && (
          <>
            {needsOtp && (
              <TextField
                label={t('rider_code')}
                value={otp}
                onChange={(event) => { setOtp(event.target.value.replace(/\D/g, '').slice(0, BOOKING_OTP_DIGITS)); }}
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
              />
            )}
            {button('start', t('start_trip'), (needsOtp && otp.length !== BOOKING_OTP_DIGITS) || (delivery && !booking.pickup_image))}
          </>
        )}
        {booking.status === 'STARTED' && (
          <>
            {delivery && photo('deliver')}
            {button('reach', t('reached'), delivery && !booking.deliver_image)}
          </>
        )}
        {booking.status === 'REACHED' && (
          <>
            <Alert severity={paying.text === 'collect_cash' ? 'warning' : 'info'}>{t(paying.text, { amount: money(due) })}</Alert>
            {button('pay', t(paying.text === 'collect_cash' ? 'cash_collected' : paying.text === 'rider_pays_card' ? 'hand_over_payment' : 'finish_trip'))}
          </>
        )}
        {booking.status === 'PENDING' && <Alert severity="info">{t('waiting_rider_payment')}</Alert>}
        {booking.status === 'CANCELLED' && <Alert severity="warning">{cancelledText(t, booking)}</Alert>}
        {(booking.status === 'PAID' || booking.status === 'COMPLETE') && <Alert severity="success">{t('you_earned', { amount: money(booking.driver_share) })}</Alert>}
      </Stack>
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
      <AlertDialog message={cancel.cancelled && cancelledText(t, cancel.cancelled)} onClose={cancel.dismiss} />
    </Paper>
  );
}
