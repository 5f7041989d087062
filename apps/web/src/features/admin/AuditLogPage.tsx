import type { AuditEntry } from '@rideway/contract';
import { AUDIT_ACTION_NAMES, AUDIT_ENTITY_TYPES } from '@rideway/domain';
import SearchIcon from '@mui/icons-material/Search';
import { Box, Button, Container, InputAdornment, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuditLog } from '../../api/audit';
import { BOOKING_SEARCH_DEBOUNCE_MS } from '../../config/ui-constants';
import { useDates } from '../../hooks/use-dates';
import { AuditEntryDialog } from './AuditEntryDialog';
import { actionLabel, actorLabel, auditFiltersOf, entityLabel, NO_AUDIT_FILTERS, whatText, type AuditForm } from './audit-view';
import { CrudTable } from './CrudTable';

/** The admin table's row: its id a string, as every admin table's. */
type Row = { id: string; entry: AuditEntry };

/** A filter set to all (the empty value) still says so, as "All actions" or "Everything". */
const SHOW_ALL = { inputLabel: { shrink: true }, select: { displayEmpty: true } } as const;

/** The form with its search box sent after a pause in typing. */
function useTypedSearch(form: AuditForm): [string, (text: string) => void, AuditForm] {
  const [typed, setTyped] = useState(form.search);
  const [sent, setSent] = useState(form.search);
  useEffect(() => {
    const timer = setTimeout(() => { setSent(typed); }, BOOKING_SEARCH_DEBOUNCE_MS);
    return () => { clearTimeout(timer); };
  }, [typed]);
  return [typed, setTyped, { ...form, search: sent }];
}

/**
 * Issue 23 point 8: every change by an admin or a fleet admin (users, approvals, documents and
 * vehicles, settings, car types, promos, wallet credits, withdraws, refunds, ...), newest first:
 * when, who, the action and what it changed; an entry opens with each field's value before and
 * after. Searched by name, email, id or action and filtered by action, kind and date; older
 * entries come a page at a time.
 */
export function AuditLogPage() {
  const { t } = useTranslation();
  const dates = useDates();
  const [form, setForm] = useState<AuditForm>(NO_AUDIT_FILTERS);
  const [typed, setTyped, sent] = useTypedSearch(form);
  const log = useAuditLog(auditFiltersOf(sent));
  const entries = useMemo(() => log.data?.pages.flatMap((page) => page.entries), [log.data]);
  const rows = useMemo(() => entries?.map((entry): Row => ({ id: String(entry.id), entry })), [entries]);
  // The entry open in its dialog, as the latest pages have it.
  const [openId, setOpenId] = useState<number | null>(null);
  const open = entries?.find((entry) => entry.id === openId);
  const columns: GridColDef<Row>[] = [
    { field: 'at', headerName: t('audit_when'), width: 190, valueGetter: (_value: unknown, row: Row) => row.entry.at, valueFormatter: (value: number) => dates.dateTime(value) },
    { field: 'actor', headerName: t('audit_who'), minWidth: 120, flex: 1, valueGetter: (_value: unknown, row: Row) => actorLabel(row.entry, t) },
    {
      field: 'action',
      headerName: t('audit_action'),
      minWidth: 150,
      flex: 1.2,
      valueGetter: (_value: unknown, row: Row) => actionLabel(row.entry.action, t),
      // Opens the whole entry: the values before and after are in the dialog only.
      renderCell: ({ row, value }: { row: Row; value?: string }) => (
        <Link component="button" variant="body2" onClick={() => { setOpenId(row.entry.id); }} sx={{ maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'middle' }}>
          {value}
        </Link>
      ),
    },
    { field: 'what', headerName: t('audit_what'), minWidth: 180, flex: 2, valueGetter: (_value: unknown, row: Row) => whatText(row.entry, t) },
  ];
  const choose = (key: Exclude<keyof AuditForm, 'search'>) => (event: { target: { value: string } }) => { setForm({ ...form, [key]: event.target.value }); };
  const filtered = typed !== '' || form.action !== '' || form.entityType !== '' || form.from !== '' || form.to !== '';
  return (
    <>
      <CrudTable
        title={t('menu_audit_log')}
        rows={rows}
        columns={columns}
        emptyText={t('no_data_available')}
        exportName="audit-log"
        // At laptop widths what was changed gives way first (the dialog has it), then the time
        // (newest are on top); who and the action, which opens the entry, stay.
        lowValue={['what', 'at']}
      >
        <Stack role="search" aria-label={t('audit_search')} spacing={1.5} sx={{ mb: 1 }}>
          <TextField
            size="small"
            type="search"
            fullWidth
            label={t('audit_search')}
            value={typed}
            onChange={(event) => { setTyped(event.target.value); }}
            slotProps={{ htmlInput: { maxLength: 100 }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, flexWrap: 'wrap', rowGap: 1.5 }}>
            <TextField size="small" select label={t('audit_action')} value={form.action} onChange={choose('action')} sx={{ minWidth: 200 }} slotProps={SHOW_ALL}>
              <MenuItem value="">{t('audit_all_actions')}</MenuItem>
              {AUDIT_ACTION_NAMES.map((action) => <MenuItem key={action} value={action}>{actionLabel(action, t)}</MenuItem>)}
            </TextField>
            <TextField size="small" select label={t('audit_entity_type')} value={form.entityType} onChange={choose('entityType')} sx={{ minWidth: 180 }} slotProps={SHOW_ALL}>
              <MenuItem value="">{t('audit_all_entities')}</MenuItem>
              {AUDIT_ENTITY_TYPES.map((type) => <MenuItem key={type} value={type}>{entityLabel(type, t)}</MenuItem>)}
            </TextField>
            <TextField size="small" type="date" label={t('date_from')} value={form.from} onChange={choose('from')} slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: form.to || undefined } }} />
            <TextField size="small" type="date" label={t('date_to')} value={form.to} onChange={choose('to')} slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: form.from || undefined } }} />
            {filtered && (
              <Button onClick={() => { setTyped(''); setForm(NO_AUDIT_FILTERS); }}>{t('clear_filters')}</Button>
            )}
          </Stack>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('audit_newest_first')}
        </Typography>
      </CrudTable>
      {log.hasNextPage && (
        <Container maxWidth="xl" sx={{ pb: 3 }}>
          <Box sx={{ display: 'flex', justifyContent: 'center' }}>
            <Button variant="outlined" loading={log.isFetchingNextPage} onClick={() => { void log.fetchNextPage(); }}>
              {t('audit_show_older')}
            </Button>
          </Box>
        </Container>
      )}
      {open && <AuditEntryDialog entry={open} onClose={() => { setOpenId(null); }} />}
    </>
  );
}
