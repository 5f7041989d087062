import { Card, CardContent, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useOwnEarnings } from '../../api/driver';
import { useMoney } from '../booking/money';

/** Issue 8: the driver's share of PAID and COMPLETE trips by month (section 9), newest first. */
export function EarningsCard() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const earnings = useOwnEarnings();
  return (
    <Card variant="outlined" component="section" aria-labelledby="earnings-title">
      <CardContent>
        <Typography id="earnings-title" variant="h6" component="h2">
          {t('my_earnings')}
        </Typography>
        {earnings.data?.length === 0 && <Typography color="text.secondary">{t('no_data_available')}</Typography>}
        <List dense aria-label={t('my_earnings')}>
          {earnings.data?.map((row) => (
            <ListItem key={`${String(row.year)}-${String(row.month)}`} disableGutters secondaryAction={<Typography sx={{ fontWeight: 600 }}>{money(row.driverShare)}</Typography>}>
              <ListItemText
                primary={new Date(Date.UTC(row.year, row.month - 1, 1)).toLocaleString(i18n.language, { month: 'long', year: 'numeric', timeZone: 'UTC' })}
                secondary={t('trips_count', { count: row.bookings })}
              />
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
