import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { monthText } from '../../utils/date-text';
import { SectionCard } from '../../components/SectionCard';
import { LinesSkeleton } from '../../components/Skeletons';
import { useOwnEarnings } from '../../api/driver';
import { useMoney } from '../../hooks/use-money';

/** Issue 8: the driver's share of PAID and COMPLETE trips by month (section 9), newest first. */
export function EarningsCard() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const earnings = useOwnEarnings();
  return (
    <SectionCard title={t('my_earnings')}>
      {earnings.isPending && <LinesSkeleton />}
      {earnings.data?.length === 0 && <Typography color="text.secondary">{t('no_data_available')}</Typography>}
      <List dense aria-label={t('my_earnings')}>
        {earnings.data?.map((row) => (
          <ListItem key={`${String(row.year)}-${String(row.month)}-${row.currency}`} disableGutters secondaryAction={<Typography sx={{ fontWeight: 600 }}>{money(row.driverShare, { currency: row.currency })}</Typography>}>
            <ListItemText primary={monthText(row.year, row.month, i18n.language)} secondary={t('trips_count', { count: row.bookings })} />
          </ListItem>
        ))}
      </List>
    </SectionCard>
  );
}
