import type { Booking } from '@rideway/contract';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Accordion, AccordionDetails, AccordionSummary, Box, Divider, Stack, Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../api/settings';
import { useMoney } from '../hooks/use-money';

const PAID = new Set(['PAID', 'COMPLETE']);

type Row = { key: string; label: string; amount: number; minus?: boolean };

function Amount({ row, money }: { row: Row; money: (amount: number) => string }) {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between' }} data-fare-row={row.key}>
      <Typography variant="body2" color="text.secondary">{row.label}</Typography>
      <Typography variant="body2" sx={{ textAlign: 'end', whiteSpace: 'nowrap', color: row.minus ? 'success.main' : undefined }}>
        {row.minus ? `−${money(row.amount)}` : money(row.amount)}
      </Typography>
    </Stack>
  );
}

/**
 * Issue 17: how a booking's fare is made up, from its own fields: the car type's parts of the fare
 * (base, distance, time, extras, the minimum fare, the cap), the fee, the discount, the total and
 * how it was paid (wallet, card, cash). After the drop it says what the estimate was and what the
 * fare was measured on, so a charge below or above the estimate explains itself.
 */
function FareLines({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const money = useMoney(booking.currency);
  const { data: settings } = useSettings();
  const unit = settings?.convert_to_mile ? t('unit_miles') : t('unit_km');
  const distanceText = (distance: number) => `${distance.toFixed(1)} ${unit}`;
  // A trip of a few seconds is "1 min", as the estimate dialog says; none at all is 0.
  const durationText = (seconds: number) => t('minutes', { count: Math.max(seconds > 0 ? 1 : 0, Math.round(seconds / 60)) });
  const seconds = booking.total_trip_time ?? booking.estimateTime;
  const parts = booking.fare_breakdown;
  const fareRows: Row[] = parts
    ? [
        { key: 'base', label: t('fare_base'), amount: parts.base_fare },
        { key: 'distance', label: t('fare_distance', { distance: distanceText(booking.distance) }), amount: parts.distance_fare },
        { key: 'time', label: t('fare_time', { duration: durationText(seconds) }), amount: parts.time_fare },
        { key: 'extras', label: t('fare_extras'), amount: parts.extras },
        { key: 'minimum', label: t('fare_minimum'), amount: parts.min_fare_top_up },
        { key: 'cap', label: t('fare_cap'), amount: parts.fare_cap_reduction, minus: true },
      ].filter((row) => row.amount > 0 || row.key === 'distance' || row.key === 'time')
    : [];
  const paid = PAID.has(booking.status);
  const paidBy: Row[] = [
    { key: 'wallet', label: t('fare_paid_by', { mode: t('payment_wallet') }), amount: booking.usedWalletMoney },
    { key: 'card', label: t('fare_paid_by', { mode: t('payment_card') }), amount: booking.cardPaymentAmount },
    { key: 'cash', label: t('fare_paid_by', { mode: t('payment_cash') }), amount: booking.cashPaymentAmount },
  ].filter((row) => row.amount > 0);
  const measured = booking.trip_end_time !== null;
  return (
    <Stack spacing={0.5}>
      {fareRows.map((row) => <Amount key={row.key} row={row} money={money} />)}
      <Amount row={{ key: 'fee', label: t('convenience_fees'), amount: booking.convenience_fees }} money={money} />
      <Divider sx={{ my: 0.5 }} />
      <Amount row={{ key: 'trip_cost', label: t('fare_trip_cost'), amount: booking.trip_cost }} money={money} />
      {booking.discount > 0 && (
        <Amount row={{ key: 'discount', label: booking.promo_details ? t('promo_discount', { code: booking.promo_details.promo_name }) : t('fare_discount'), amount: booking.discount, minus: true }} money={money} />
      )}
      <Divider sx={{ my: 0.5 }} />
      <Stack direction="row" sx={{ justifyContent: 'space-between' }} data-fare-row="total">
        <Typography sx={{ fontWeight: 700 }}>{t('fare_total')}</Typography>
        <Typography sx={{ fontWeight: 700 }} data-testid="fare-total">{money(booking.customer_paid)}</Typography>
      </Stack>
      {paid
        ? paidBy.map((row) => <Amount key={row.key} row={row} money={money} />)
        : <Typography variant="body2" color="text.secondary">{t('fare_to_pay_by', { mode: t(`payment_${booking.payment_mode}`) })}</Typography>}
      {measured && booking.trip_cost !== booking.estimate && (
        <Typography variant="body2" color="text.secondary" sx={{ pt: 1 }} data-testid="fare-note">
          {t('fare_estimate_note', { amount: money(booking.estimate), distance: distanceText(booking.estimateDistance), duration: durationText(booking.estimateTime) })}{' '}
          {t('fare_driven_note', { distance: distanceText(booking.distance), duration: durationText(seconds) })}
        </Typography>
      )}
      {booking.fareCapped && booking.uncappedFare !== null && (
        <Typography variant="body2" color="text.secondary">{t('fare_capped_note', { amount: money(booking.uncappedFare) })}</Typography>
      )}
    </Stack>
  );
}

/**
 * The fare breakdown of a booking: open on the trip's page, folded in the booking list. Nothing
 * for a cancelled booking, which was not charged a fare.
 */
export function FareBreakdown({ booking, folded = false }: { booking: Booking; folded?: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  if (booking.status === 'CANCELLED') return null;
  if (folded) {
    return (
      <Accordion disableGutters elevation={0} sx={{ mt: 1, bgcolor: 'transparent', '&::before': { display: 'none' } }}>
        <AccordionSummary expandIcon={<ExpandMoreIcon />} sx={{ px: 0, minHeight: 0 }}>
          <Typography variant="body2" color="primary">{t('fare_breakdown')}</Typography>
        </AccordionSummary>
        <AccordionDetails sx={{ px: 0, pt: 0 }}>
          <FareLines booking={booking} />
        </AccordionDetails>
      </Accordion>
    );
  }
  return (
    <Box component="section" aria-labelledby={titleId} data-testid="fare-breakdown">
      <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
        {t('fare_breakdown')}
      </Typography>
      <FareLines booking={booking} />
    </Box>
  );
}
