import { Paper, Skeleton, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The booking map's height by breakpoint, shared by the map and its placeholder. */
export const BOOKING_MAP_HEIGHT = { xs: 260, md: 280 } as const;
/** MUI's outlined text field and select, and its large and small buttons (their line boxes and padding), in px. */
const FIELD_PX = 56;
const LARGE_BUTTON_PX = 42.25;
const SMALL_BUTTON_PX = 30.75;
/** A caption line (0.75 rem at a line height of 1.66). */
const CAPTION_PX = 19.92;

/** The booking map's shape (the map, the "use my location" row and the one-line hint under it) while its code loads. */
export function BookingMapPlaceholder() {
  return (
    <Stack spacing={1} aria-hidden="true">
      <Skeleton variant="rounded" sx={{ height: BOOKING_MAP_HEIGHT }} />
      <Skeleton variant="rounded" width={160} height={SMALL_BUTTON_PX} />
      <Skeleton variant="text" width="80%" height={CAPTION_PX} />
    </Stack>
  );
}

/**
 * Issue 17 and issue 21 point 5: the booking form's shape, element for element (its title, the two
 * places, the map for a signed-in user, the car type, the booking type and the button), while the
 * session is asked for or the form's code loads. The server draws it in the landing page too
 * (app/landing-shell.tsx), so nothing moves when the form arrives.
 */
export function BookingFormPlaceholder({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const field = <Skeleton variant="rounded" height={FIELD_PX} />;
  return (
    <Paper role="status" aria-busy="true" aria-label={t('loading')} data-testid="form-skeleton" sx={{ p: { xs: 2, md: 3 } }}>
      <Skeleton variant="text" width="40%" height={32} sx={{ mb: 2 }} aria-hidden="true" />
      <Stack spacing={2} aria-hidden="true">
        {field}
        {field}
        {signedIn && <BookingMapPlaceholder />}
        {field}
        {field}
        <Skeleton variant="rounded" height={LARGE_BUTTON_PX} />
      </Stack>
    </Paper>
  );
}
