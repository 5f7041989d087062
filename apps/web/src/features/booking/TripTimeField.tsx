import { BOOK_LATER_MIN_LEAD_MS, fromDateTimeLocal, isBookLaterLeadMet, toDateTimeLocal } from '@rideway/domain';
import { Box, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDates } from '../../hooks/use-dates';

/** The browser's own time zone: the field names the operator's when they differ. */
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const MINUTE = 60_000;
/** How often the earliest allowed time moves on while the form is open. */
const TICK_MS = 15_000;

/** The earliest trip time the server takes (section 9: 15 minutes ahead), rounded up to the field's whole minute. */
export const earliestTripTime = (now: number): number => Math.ceil((now + BOOK_LATER_MIN_LEAD_MS) / MINUTE) * MINUTE;

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => { setNow(Date.now()); }, TICK_MS);
    return () => { clearInterval(timer); };
  }, []);
  return now;
}

type Props = { value: string; onChange: (value: string) => void; zone: string | undefined; changed: boolean };

/**
 * Book later's date-time (issue 17, point 2). It starts at the current time (section 4); the
 * picker's `min` is the earliest allowed time, 15 minutes ahead on the operator's clock, so the
 * browser's picker offers nothing earlier, and the rule with that time is written under the field
 * before Book is pressed. A time the rider sets earlier than that is marked invalid at once (Book
 * still answers past_booking_error, section 5); the untouched default only shows the rule.
 */
export function TripTimeField({ value, onChange, zone, changed }: Props) {
  const { t } = useTranslation();
  const dates = useDates();
  const now = useNow();
  const earliest = earliestTripTime(now);
  const earliestText = toDateTimeLocal(earliest, zone);
  const sameDay = earliestText.slice(0, 10) === toDateTimeLocal(now, zone).slice(0, 10);
  // In the reader's language and the operator's clock, as every time in the app is shown.
  const shown = sameDay ? dates.time(earliest) : dates.dateTime(earliest);
  const chosen = fromDateTimeLocal(value, zone);
  const tooEarly = changed && (chosen === undefined || !isBookLaterLeadMet(chosen, now));
  const rule = t('trip_time_rule', { minutes: BOOK_LATER_MIN_LEAD_MS / MINUTE, time: shown });
  return (
    <TextField
      fullWidth
      type="datetime-local"
      label={t('trip_date')}
      value={value}
      error={tooEarly}
      onChange={(event) => { onChange(event.target.value); }}
      helperText={
        <>
          {tooEarly && <Box component="span" sx={{ display: 'block', fontWeight: 600 }}>{t('past_booking_error')}</Box>}
          <Box component="span" sx={{ display: 'block' }} data-testid="trip-time-rule">{rule}</Box>
          {zone && zone !== BROWSER_ZONE && <Box component="span" sx={{ display: 'block' }}>{t('trip_time_zone', { zone })}</Box>}
        </>
      }
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: earliestText, step: 60 } }}
    />
  );
}
