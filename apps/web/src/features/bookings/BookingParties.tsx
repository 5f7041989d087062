import type { Booking } from '@rideway/contract';
import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Who rides and who drives, for the admin's and fleet admin's booking history (issue 17). */
export function BookingParties({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  return (
    <Typography variant="body2" data-testid="booking-parties" sx={{ mt: 0.5 }}>
      <Typography component="span" variant="body2" color="text.secondary">{`${t('rider')}: `}</Typography>
      <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>{booking.customer_name}</Typography>
      <Typography component="span" variant="body2" color="text.secondary">{` · ${t('driver')}: `}</Typography>
      {booking.driver_name ? (
        <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>{booking.driver_name}</Typography>
      ) : (
        <Typography component="span" variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>{t('no_driver_yet')}</Typography>
      )}
    </Typography>
  );
}
