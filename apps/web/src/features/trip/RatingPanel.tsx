import type { Booking } from '@rideway/contract';
import { MAX_RATING_COMMENT_LENGTH } from '@rideway/domain';
import { Alert, Button, Paper, Rating, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBookingAction } from '../../api/bookings';
import { errorKey } from '../../api/client';
import { TripRating } from '../../components/TripRating';

/**
 * Section 4 COMPLETE: after paying, the rider rates the driver (1 to 5), with a comment if it
 * wants (issue 17), and closes the trip. Admins see the rating and the comment once given.
 */
export function RatingPanel({ booking, viewer = 'rider' }: { booking: Booking; viewer?: 'rider' | 'admin' }) {
  const { t } = useTranslation();
  const complete = useBookingAction();
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  if (viewer === 'admin' || booking.status === 'COMPLETE') {
    if (!booking.rating) return null;
    return (
      <Paper variant="outlined" component="section" aria-label={t('rating_title')} sx={{ p: 2 }}>
        <Stack spacing={1}>
          {viewer === 'rider' && <Alert severity="success">{t('you_rated', { rating: booking.rating })}</Alert>}
          <TripRating booking={booking} label={t(viewer === 'admin' ? 'rider_rating' : 'your_rating')} />
        </Stack>
      </Paper>
    );
  }
  const submit = () => {
    const words = comment.trim();
    complete.mutate({ id: booking.id, action: 'complete', body: { rating, ...(words ? { comment: words } : {}) } });
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="rating-title" sx={{ p: 2 }}>
      <Typography id="rating-title" variant="h6" component="h2" gutterBottom>
        {t('rate_trip')}
      </Typography>
      <Stack spacing={2}>
        <Rating name="rating" size="large" value={rating} onChange={(_event, value) => { setRating(value); }} />
        <TextField
          label={t('rating_comment')}
          value={comment}
          onChange={(event) => { setComment(event.target.value); }}
          multiline
          minRows={2}
          helperText={`${String(comment.length)}/${String(MAX_RATING_COMMENT_LENGTH)}`}
          slotProps={{ htmlInput: { maxLength: MAX_RATING_COMMENT_LENGTH } }}
        />
        <Button variant="contained" sx={{ alignSelf: 'flex-start' }} disabled={rating === null || complete.isPending} onClick={submit}>
          {t('submit_rating')}
        </Button>
      </Stack>
      {complete.isError && <Alert severity="error" sx={{ mt: 2 }}>{t(errorKey(complete.error))}</Alert>}
    </Paper>
  );
}
