import type { Booking, User } from '@rideway/contract';
import { NO_TAKER_REASON } from '@rideway/domain';
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { storeBooking, useRetryBooking } from '../../api/bookings';
import { errorKey } from '../../api/client';
import { useLiveTopic } from '../../api/live';

/** Where a booking's driver search stands, as its rider follows it (issue 17, point 1). */
export type SearchPhase = 'scheduled' | 'searching' | 'next_drivers' | 'found' | 'no_driver';

/**
 * NEW: scheduled (a later trip whose search has not begun), searching (the first round of
 * offers), or offered to the next drivers (a later round: nobody took the first offers).
 * ACCEPTED or ARRIVED: a driver was found. Cancelled by the system for want of a taker: no
 * driver (decisions.md, "No taker"). Any other booking has no search to show.
 */
export function searchPhase(booking: Booking): SearchPhase | null {
  const round = booking.search_round ?? 0;
  if (booking.status === 'NEW') return booking.bookLater && round === 0 ? 'scheduled' : round > 1 ? 'next_drivers' : 'searching';
  if ((booking.status === 'ACCEPTED' || booking.status === 'ARRIVED') && booking.driver) return 'found';
  if (booking.status === 'CANCELLED' && booking.cancelledBy === 'system' && booking.reason === NO_TAKER_REASON) return 'no_driver';
  return null;
}

const SEVERITY = { scheduled: 'info', searching: 'info', next_drivers: 'info', found: 'success', no_driver: 'warning' } as const;

/**
 * The search state on a booking's card in the list, kept live: a NEW booking's own topic brings
 * each round and the accept as they happen. One tap opens the booking's live page; a booking
 * nobody took offers its rider to book the same trip again (POST /api/bookings/:id/retry).
 */
export function SearchState({ booking, me }: { booking: Booking; me: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const retry = useRetryBooking();
  const phase = searchPhase(booking);
  useLiveTopic(booking.status === 'NEW' ? `booking:${booking.id}` : null, (event) => {
    if (event.event === 'booking') storeBooking(queryClient, event.data);
  });
  if (!phase) return null;
  const text = phase === 'found' ? t('search_found', { name: booking.driver_name ?? '' }) : t(`search_${phase}`);
  const mayRetry = phase === 'no_driver' && me.id === booking.customer && !booking.retried_as;
  return (
    <Alert
      severity={SEVERITY[phase]}
      role="status"
      data-testid="search-state"
      data-phase={phase}
      sx={{ mt: 1, '& .MuiAlert-message': { width: '100%' } }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>{text}</Typography>
      {(phase === 'searching' || phase === 'next_drivers') && <LinearProgress aria-hidden sx={{ my: 1 }} />}
      <Stack direction="row" spacing={1} sx={{ mt: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
        {phase !== 'no_driver' && (
          <Button component={RouterLink} to={`/bookings/${booking.id}`} size="small" variant="outlined">
            {t('follow_live')}
          </Button>
        )}
        {mayRetry && (
          <Button size="small" variant="contained" disabled={retry.isPending} onClick={() => { retry.mutate(booking.id); }}>
            {t('retry_booking')}
          </Button>
        )}
        {phase === 'no_driver' && booking.retried_as && (
          <Button component={RouterLink} to={`/bookings/${booking.retried_as}`} size="small">
            {t('retried_booking')}
          </Button>
        )}
      </Stack>
      {retry.isError && (
        <Box role="alert" sx={{ mt: 1, color: 'error.main', typography: 'body2' }}>
          {t(errorKey(retry.error))}
        </Box>
      )}
    </Alert>
  );
}
