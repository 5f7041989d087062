import type { Notification, SentNotification } from '@rideway/contract';
import { NOTIFICATION_DEVICE_TYPES, NOTIFICATION_USER_TYPES } from '@rideway/domain';
import { MenuItem, Stack, TextField } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../../components/AlertDialog';
import { useDates } from '../../hooks/use-dates';
import { useCollection } from '../../api/admin';
import { api, errorKey } from '../../api/client';
import { CrudTable } from './CrudTable';
import { FormDialog } from './FormDialog';

const NOTIFICATIONS = ['notifications'] as const;

type Draft = Pick<Notification, 'usertype' | 'devicetype' | 'title' | 'body'>;

function ComposeDialog({ busy, onSend, onClose }: { busy: boolean; onSend: (draft: Draft) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>({ usertype: 'All', devicetype: 'All', title: '', body: '' });
  const set = (key: keyof Draft) => (event: { target: { value: string } }) => { setDraft({ ...draft, [key]: event.target.value }); };
  return (
    <FormDialog title={t('send_notification')} busy={busy} onSubmit={() => { onSend(draft); }} onClose={onClose} submitLabel={t('send')}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField select label={t('notification_usertype')} value={draft.usertype} onChange={set('usertype')}>
          {NOTIFICATION_USER_TYPES.map((type) => <MenuItem key={type} value={type}>{t(`audience_${type}`)}</MenuItem>)}
        </TextField>
        <TextField select label={t('notification_devicetype')} value={draft.devicetype} onChange={set('devicetype')}>
          {NOTIFICATION_DEVICE_TYPES.map((type) => <MenuItem key={type} value={type}>{t(`device_${type}`)}</MenuItem>)}
        </TextField>
        <TextField required label={t('notification_title')} value={draft.title} onChange={set('title')} slotProps={{ htmlInput: { maxLength: 100 } }} />
        <TextField required multiline minRows={3} label={t('notification_body')} value={draft.body} onChange={set('body')} slotProps={{ htmlInput: { maxLength: 1000 } }} />
      </Stack>
    </FormDialog>
  );
}

type PerChannel = SentNotification['devices'];
const CHANNELS = ['webpush', 'fcm', 'expo'] as const;

/** "Web 3 · FCM 2 · Expo 1": devices of each kind (issue 19), in the list and its export. */
const perChannel = (counts: PerChannel | undefined, t: (key: string) => string): string =>
  CHANNELS.map((channel) => `${t(`channel_${channel}`)} ${String(counts?.[channel] ?? 0)}`).join(' · ');

/**
 * Section 2 /notifications: compose a push message for riders, drivers or both, on one platform
 * or all; the list keeps what was sent, to how many people, and (issue 19) how many devices of
 * each kind (browsers, FCM phones, Expo apps) it was addressed to and has reached so far.
 */
export function NotificationsPage() {
  const { t } = useTranslation();
  const dates = useDates();
  const notifications = useQuery({ queryKey: NOTIFICATIONS, queryFn: async () => (await api<{ notifications: SentNotification[] }>('/api/notifications')).notifications });
  const { add: send, remove } = useCollection<SentNotification, Draft>('/api/notifications', NOTIFICATIONS, 'notification');
  const [composing, setComposing] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const columns: GridColDef<SentNotification>[] = [
    { field: 'createdAt', headerName: t('date'), type: 'number', width: 170, valueFormatter: (value: number) => dates.dateTime(value) },
    { field: 'usertype', headerName: t('notification_usertype'), width: 120, valueFormatter: (value: string) => t(`audience_${value}`) },
    { field: 'devicetype', headerName: t('notification_devicetype'), width: 120, valueFormatter: (value: string) => t(`device_${value}`) },
    { field: 'title', headerName: t('notification_title'), minWidth: 150, flex: 1 },
    { field: 'body', headerName: t('notification_body'), minWidth: 200, flex: 2 },
    { field: 'recipients', headerName: t('recipients'), type: 'number', width: 110 },
    { field: 'devices', headerName: t('notification_devices'), width: 175, valueGetter: (_value: unknown, row: SentNotification) => perChannel(row.devices, t) },
    { field: 'delivered', headerName: t('notification_delivered'), width: 175, valueGetter: (_value: unknown, row: SentNotification) => perChannel(row.delivered, t) },
  ];
  return (
    <>
      <CrudTable
        title={t('menu_push_notifications')}
        rows={notifications.data}
        columns={columns}
        emptyText={t('no_data_available')}
        exportName="notifications"
        // At laptop widths the message gives way first (the title names it), then the date: the
        // audience, the devices addressed and reached, and the actions stay in view (issue 17, point 9).
        lowValue={['body', 'createdAt', 'devicetype']}
        add={{ label: t('send_notification'), onClick: () => { setComposing(true); } }}
        onDelete={(row) => remove.mutateAsync(row.id)}
      />
      {composing && (
        <ComposeDialog
          busy={send.isPending}
          onClose={() => { setComposing(false); }}
          onSend={(draft) => {
            send.mutate(draft, {
              onSuccess: (sent) => {
                setComposing(false);
                setAlert(t('notification_sent_devices', { count: sent.recipients, ...sent.devices }));
              },
              onError: (error) => { setAlert(t(errorKey(error))); },
            });
          }}
        />
      )}
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </>
  );
}
