import type { OutboxMessage, OutboxQuery } from '@rideway/contract';
import { MESSAGE_CHANNELS, OUTBOX_STATES, type MessageChannel, type OutboxState } from '@rideway/domain';
import FailedIcon from '@mui/icons-material/ErrorOutline';
import RetryIcon from '@mui/icons-material/Replay';
import SearchIcon from '@mui/icons-material/Search';
import { Chip, InputAdornment, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/NoticeProvider';
import { errorKey } from '../../api/client';
import { useOutbox, useRetryMessage } from '../../api/outbox';
import { BOOKING_SEARCH_DEBOUNCE_MS } from '../../config/ui-constants';
import { useDates } from '../../hooks/use-dates';
import { actionsWidth } from './fit-columns';
import { CrudTable } from './CrudTable';
import { MessageDialog } from './MessageDialog';
import { messageText, STATE_COLOURS, stateLabel } from './outbox-view';

/** The admin table's row: its id a string, as every admin table's. */
type Row = { id: string; message: OutboxMessage };

type Filters = { channel: MessageChannel | ''; state: OutboxState | '' };

/** A filter set to all (the empty value) still says so, as "All channels" or "All states". */
const SHOW_ALL = { inputLabel: { shrink: true }, select: { displayEmpty: true } } as const;

/** The search box, sent after a pause in typing. */
function useTypedSearch(): [string, (text: string) => void, string] {
  const [typed, setTyped] = useState('');
  const [sent, setSent] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => { setSent(typed.trim()); }, BOOKING_SEARCH_DEBOUNCE_MS);
    return () => { clearTimeout(timer); };
  }, [typed]);
  return [typed, setTyped, sent];
}

/**
 * Issue 19, point 1: a delivery failure is visible to admins. The outbox's mail, SMS and push,
 * newest first, by channel, state and recipient; a failed message says so in red and in words,
 * with its last error, and an admin sends it again (it waits for its relay once more).
 */
export function MessagesPage() {
  const { t } = useTranslation();
  const dates = useDates();
  const notify = useNotice();
  const [filters, setFilters] = useState<Filters>({ channel: '', state: '' });
  const [typed, setTyped, search] = useTypedSearch();
  const query: OutboxQuery = { ...(filters.channel ? { channel: filters.channel } : {}), ...(filters.state ? { state: filters.state } : {}), ...(search ? { search } : {}) };
  const outbox = useOutbox(query);
  const retry = useRetryMessage();
  const rows = useMemo(() => outbox.data?.map((message): Row => ({ id: String(message.id), message })), [outbox.data]);
  // The message open in its dialog, as the latest listing has it.
  const [openId, setOpenId] = useState<number | null>(null);
  const open = outbox.data?.find((message) => message.id === openId);
  const sendAgain = (message: OutboxMessage) => {
    retry.mutate(message.id, {
      onSuccess: () => {
        setOpenId(null);
        notify(t('message_sent_again'));
      },
      // An action on a row, not a form: its refusal is an error notice (issue 17).
      onError: (error) => { notify(t(errorKey(error)), 'error'); },
    });
  };
  const columns: GridColDef<Row>[] = [
    { field: 'createdAt', headerName: t('date'), width: 170, valueGetter: (_value: unknown, row: Row) => row.message.createdAt, valueFormatter: (value: number) => dates.dateTime(value) },
    { field: 'channel', headerName: t('message_channel'), width: 80, valueGetter: (_value: unknown, row: Row) => t(`message_channel_${row.message.channel}`) },
    {
      field: 'recipient',
      headerName: t('message_recipient'),
      minWidth: 110,
      flex: 1.5,
      valueGetter: (_value: unknown, row: Row) => row.message.recipient,
      // Opens the whole message: its text and error are cut in the table, and left out on a phone.
      renderCell: ({ row, value }: { row: Row; value?: string }) => (
        <Link component="button" variant="body2" onClick={() => { setOpenId(row.message.id); }} sx={{ maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'middle' }}>
          {value}
        </Link>
      ),
    },
    { field: 'text', headerName: t('message_text'), minWidth: 150, flex: 1.5, valueGetter: (_value: unknown, row: Row) => messageText(row.message) },
    {
      field: 'state',
      headerName: t('message_state'),
      // With the recipient and the action it fits a 375 px phone.
      width: 145,
      valueGetter: (_value: unknown, row: Row) => stateLabel(row.message, t),
      renderCell: ({ row, value }: { row: Row; value?: string }) => (
        <Chip
          size="small"
          color={STATE_COLOURS[row.message.state]}
          variant={row.message.state === 'failed' ? 'filled' : 'outlined'}
          {...(row.message.state === 'failed' ? { icon: <FailedIcon /> } : {})}
          label={value}
          data-state={row.message.state}
        />
      ),
    },
    {
      field: 'lastError',
      headerName: t('message_last_error'),
      minWidth: 150,
      flex: 2,
      valueGetter: (_value: unknown, row: Row) => row.message.lastError ?? '',
      renderCell: ({ row, value }: { row: Row; value?: string }) => (
        // Two lines of it: the provider's code and reason come first; the whole error is its title.
        <Typography
          variant="body2"
          title={value}
          color={row.message.state === 'failed' ? 'error' : 'text.secondary'}
          sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', whiteSpace: 'normal', lineHeight: 1.3, wordBreak: 'break-word' }}
        >
          {value}
        </Typography>
      ),
    },
    {
      field: 'retry',
      type: 'actions',
      headerName: t('actions'),
      width: actionsWidth(1),
      getActions: ({ row }) => [
        <GridActionsCellItem key="retry" icon={<RetryIcon />} label={t('send_again')} disabled={row.message.state !== 'failed' || retry.isPending} onClick={() => { sendAgain(row.message); }} />,
      ],
    },
  ];
  const choose = (key: keyof Filters) => (event: { target: { value: string } }) => { setFilters({ ...filters, [key]: event.target.value }); };
  return (
    <>
      <CrudTable
        title={t('menu_messages')}
        rows={rows}
        columns={columns}
        emptyText={t('no_data_available')}
        exportName="messages"
        // At laptop widths the date gives way first (newest are on top), then the channel (the
        // recipient shows it: a number, an address or an account); the state, its error and the action stay.
        lowValue={['createdAt', 'channel', 'text', 'lastError']}
      >
        <Stack role="search" aria-label={t('search_recipient')} direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 1 }}>
          <TextField
            size="small"
            type="search"
            label={t('search_recipient')}
            value={typed}
            onChange={(event) => { setTyped(event.target.value); }}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { maxLength: 100 }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
          />
          <TextField size="small" select label={t('message_channel')} value={filters.channel} onChange={choose('channel')} sx={{ minWidth: 160 }} slotProps={SHOW_ALL}>
            <MenuItem value="">{t('all_channels')}</MenuItem>
            {MESSAGE_CHANNELS.map((channel) => <MenuItem key={channel} value={channel}>{t(`message_channel_${channel}`)}</MenuItem>)}
          </TextField>
          <TextField size="small" select label={t('message_state')} value={filters.state} onChange={choose('state')} sx={{ minWidth: 160 }} slotProps={SHOW_ALL}>
            <MenuItem value="">{t('all_states')}</MenuItem>
            {OUTBOX_STATES.map((state) => <MenuItem key={state} value={state}>{t(`message_state_${state}`)}</MenuItem>)}
          </TextField>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('messages_newest_shown')}
        </Typography>
      </CrudTable>
      {open && <MessageDialog message={open} busy={retry.isPending} onRetry={() => { sendAgain(open); }} onClose={() => { setOpenId(null); }} />}
    </>
  );
}
