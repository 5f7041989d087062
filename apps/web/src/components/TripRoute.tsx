import type { Booking } from '@rideway/contract';
import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** A booking's pickup and drop, as the booking list and the driver's offers show them. */
export function TripRoute({ booking }: { booking: Pick<Booking, 'pickupAddress' | 'dropAddress'> }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography sx={{ mt: 1 }}>
        <strong>{t('pickup_location')}:</strong> {booking.pickupAddress}
      </Typography>
      <Typography>
        <strong>{t('drop_location')}:</strong> {booking.dropAddress}
      </Typography>
    </>
  );
}
