import type { BookingStatus } from '@rideway/domain';
import { BOOKING_STATUSES } from '@rideway/domain';
import SearchIcon from '@mui/icons-material/Search';
import { Button, InputAdornment, MenuItem, Stack, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BookingFilters as Filters } from '../../api/bookings';
import { BOOKING_SEARCH_DEBOUNCE_MS } from '../../config/ui-constants';

/** What the admin typed and chose; dates are the date fields' yyyy-mm-dd. */
export type FilterForm = { q: string; status: BookingStatus | ''; from: string; to: string };
export const NO_FILTERS: FilterForm = { q: '', status: '', from: '', to: '' };

/** The server's filters for a form: the days whole, in the browser's time zone, both ends included. */
export function filtersOf(form: FilterForm): Filters {
  const day = (text: string, end: boolean) => (text ? new Date(`${text}T${end ? '23:59:59.999' : '00:00:00'}`).getTime() : undefined);
  return { q: form.q.trim() || undefined, status: form.status || undefined, from: day(form.from, false), to: day(form.to, true) };
}

/**
 * Issue 17: the admin's and fleet admin's booking history is searched by reference or by the
 * rider's or driver's name, and filtered by status and trip date. Typing is sent after a pause.
 */
export function BookingFilters({ value, onChange }: { value: FilterForm; onChange: (form: FilterForm) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState(value.q);
  useEffect(() => {
    if (typed === value.q) return undefined;
    const timer = setTimeout(() => { onChange({ ...value, q: typed }); }, BOOKING_SEARCH_DEBOUNCE_MS);
    return () => { clearTimeout(timer); };
  }, [typed, value, onChange]);
  const set = (key: 'status' | 'from' | 'to') => (event: { target: { value: string } }) => { onChange({ ...value, q: typed, [key]: event.target.value }); };
  const filtered = typed !== '' || value.status !== '' || value.from !== '' || value.to !== '';
  return (
    <Stack role="search" aria-label={t('search_bookings')} spacing={1.5} sx={{ mb: 2 }}>
      <TextField
        size="small"
        type="search"
        fullWidth
        label={t('search_bookings')}
        value={typed}
        onChange={(event) => { setTyped(event.target.value); }}
        slotProps={{ htmlInput: { maxLength: 100 }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <TextField size="small" select label={t('booking_status_filter')} value={value.status} onChange={set('status')} sx={{ minWidth: 180 }}>
          <MenuItem value="">{t('all_statuses')}</MenuItem>
          {BOOKING_STATUSES.map((status) => <MenuItem key={status} value={status}>{t(`status_${status}`)}</MenuItem>)}
        </TextField>
        <TextField size="small" type="date" label={t('date_from')} value={value.from} onChange={set('from')} slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: value.to || undefined } }} />
        <TextField size="small" type="date" label={t('date_to')} value={value.to} onChange={set('to')} slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: value.from || undefined } }} />
        {filtered && (
          <Button onClick={() => { setTyped(''); onChange(NO_FILTERS); }}>{t('clear_filters')}</Button>
        )}
      </Stack>
    </Stack>
  );
}
