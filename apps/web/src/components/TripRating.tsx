import type { Booking } from '@rideway/contract';
import { Rating, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/**
 * A finished trip's rating, with the rider's comment when the viewer may see it (the rider and
 * admins, issue 17). The comment is text: React escapes it, so markup typed in it shows as typed.
 */
export function TripRating({ booking, label }: { booking: Pick<Booking, 'rating' | 'rating_comment'>; label: string }) {
  const { t } = useTranslation();
  if (!booking.rating) return null;
  return (
    <Stack spacing={0.5} data-testid="trip-rating">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" color="text.secondary">{label}</Typography>
        <Rating value={booking.rating} readOnly size="small" aria-label={t('rating_of', { rating: booking.rating })} />
      </Stack>
      {booking.rating_comment && (
        <Typography variant="body2" component="blockquote" data-testid="rating-comment" sx={{ m: 0, pl: 1.5, borderInlineStart: 3, borderColor: 'divider', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {booking.rating_comment}
        </Typography>
      )}
    </Stack>
  );
}
