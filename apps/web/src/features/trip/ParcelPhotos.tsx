import type { Booking } from '@rideway/contract';
import { Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The parcel's photos, for everyone who follows the booking. */
export function ParcelPhotos({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const photos = [
    { src: booking.pickup_image, label: t('pickup_photo') },
    { src: booking.deliver_image, label: t('deliver_photo') },
  ].filter((photo): photo is { src: string; label: string } => Boolean(photo.src));
  if (photos.length === 0) return null;
  return (
    <Paper variant="outlined" component="section" aria-label={t('parcel_photos')} sx={{ p: 2 }}>
      <Stack direction="row" spacing={2}>
        {photos.map((photo) => (
          <figure key={photo.label} style={{ margin: 0 }}>
            <img src={photo.src} alt={photo.label} style={{ width: 120, height: 120, objectFit: 'cover', borderRadius: 4 }} />
            <Typography component="figcaption" variant="caption" sx={{ display: 'block' }}>
              {photo.label}
            </Typography>
          </figure>
        ))}
      </Stack>
    </Paper>
  );
}
