import type { Booking } from '@rideway/contract';
import PhoneIcon from '@mui/icons-material/Phone';
import StarIcon from '@mui/icons-material/Star';
import { Avatar, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { telHref } from '../../utils/tel';

/** The statuses in which the rider may still need to reach the driver. */
const CALLABLE = new Set(['ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED', 'PENDING']);

const initialsOf = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');

/**
 * Issue 17, the live page: who is coming and in what. The driver's photo, name and rating, the
 * car and its plate, and a tap-to-call button while the trip runs.
 */
export function DriverCard({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const name = booking.driver_name ?? t('driver');
  const car = [booking.vehicleMake, booking.vehicleModel].filter(Boolean).join(' ');
  const call = booking.driver_contact && CALLABLE.has(booking.status) ? telHref(booking.driver_contact) : undefined;
  const rating = booking.driverRating ?? 0;
  return (
    <Card variant="outlined" component="section" aria-label={t('your_driver')} data-testid="driver-card">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Avatar src={booking.driver_image || undefined} alt={name} sx={{ width: 56, height: 56, bgcolor: 'primary.main' }}>
            {initialsOf(name)}
          </Avatar>
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700 }} noWrap>
              {name}
            </Typography>
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }} data-testid="driver-rating">
              <StarIcon fontSize="small" sx={{ color: 'warning.main' }} aria-hidden />
              <Typography variant="body2">{rating > 0 ? t('driver_rating', { rating: rating.toFixed(1) }) : t('new_driver')}</Typography>
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {car ? `${car} · ${booking.carType}` : booking.carType}
            </Typography>
          </Box>
          {booking.vehicle_number && (
            <Box
              title={t('number_plate')}
              data-testid="driver-plate"
              sx={{ px: 1, py: 0.5, border: 2, borderColor: 'text.primary', borderRadius: 1, bgcolor: '#ffd500', color: '#111', fontFamily: 'monospace', fontWeight: 700, whiteSpace: 'nowrap' }}
            >
              {booking.vehicle_number}
            </Box>
          )}
        </Stack>
        {call && (
          <Button href={call} variant="contained" startIcon={<PhoneIcon />} fullWidth sx={{ mt: 2 }}>
            {t('call_driver', { name })}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
