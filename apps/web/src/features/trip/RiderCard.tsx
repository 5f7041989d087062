import type { Booking } from '@rideway/contract';
import { Avatar, Card, CardContent, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { initialsOf } from '../../utils/initials';

/** Issue 20: the driver's side of the live page: who it is picking up, with the rider's photo (customer_image). */
export function RiderCard({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const name = booking.customer_name;
  return (
    <Card variant="outlined" component="section" aria-label={t('your_rider')} data-testid="rider-card">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Avatar src={booking.customer_image || undefined} alt={name} sx={{ width: 56, height: 56, bgcolor: 'secondary.main', color: 'secondary.contrastText' }}>
            {initialsOf(name)}
          </Avatar>
          <Stack sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary">{t('your_rider')}</Typography>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700 }} noWrap>
              {name}
            </Typography>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
