import type { Booking } from '@rideway/contract';
import { Alert, Button, Paper, Rating, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBookingAction } from '../../api/bookings';
import { errorKey } from '../../api/client';

/** Section 4 COMPLETE: after paying, the rider rates the driver (1 to 5) and closes the trip. */
export function RatingPanel({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const complete = useBookingAction();
  const [rating, setRating] = useState<number | null>(null);
  if (booking.status === 'COMPLETE') {
    return booking.rating ? <Alert severity="success">{t('you_rated', { rating: booking.rating })}</Alert> : null;
  }
  return (
    <Paper variant="outlined" component="section" aria-labelledby="rating-title" sx={{ p: 2 }}>
      <Typography id="rating-title" variant="h6" component="h2" gutterBottom>
        {t('rate_trip')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Rating name="rating" size="large" value={rating} onChange={(_event, value) => { setRating(value); }} />
        <Button variant="contained" disabled={rating === null || complete.isPending} onClick={() => { complete.mutate({ id: booking.id, action: 'complete', body: { rating } }); }}>
          {t('submit_rating')}
        </Button>
      </Stack>
      {complete.isError && <Alert severity="error" sx={{ mt: 2 }}>{t(errorKey(complete.error))}</Alert>}
    </Paper>
  );
}
