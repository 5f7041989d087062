import type { NotificationPreferences } from '@rideway/contract';
import { FormControlLabel, Switch, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorKey } from '../../api/client';
import { useNotice } from '../../components/NoticeProvider';
import { SectionCard } from '../../components/SectionCard';

const PREFERENCES = ['notification-preferences'] as const;
const URL = '/api/me/notification-preferences';

/**
 * Issue 19 point 7: the rider's or driver's switch for promotional notifications (what admins
 * send from the Push notifications page). Trip notices are not a choice: they always go.
 */
export function NotificationPreferencesCard() {
  const { t } = useTranslation();
  const notify = useNotice();
  const queryClient = useQueryClient();
  const preferences = useQuery({ queryKey: PREFERENCES, queryFn: async () => (await api<{ preferences: NotificationPreferences }>(URL)).preferences });
  const save = useMutation({
    mutationFn: async (promotions: boolean) => (await api<{ preferences: NotificationPreferences }>(URL, { method: 'PUT', body: { promotions } })).preferences,
    onSuccess: (saved) => {
      queryClient.setQueryData(PREFERENCES, saved);
      notify(t(saved.promotions ? 'promo_notifications_on' : 'promo_notifications_off'));
    },
    onError: (error) => { notify(t(errorKey(error)), 'error'); },
  });
  const checked = save.isPending ? save.variables : (preferences.data?.promotions ?? true);
  return (
    <SectionCard title={t('notification_preferences')}>
      <FormControlLabel
        control={<Switch checked={checked} disabled={!preferences.data || save.isPending} onChange={(event) => { save.mutate(event.target.checked); }} />}
        label={t('promo_notifications')}
      />
      <Typography variant="body2" color="text.secondary">{t('promo_notifications_help')}</Typography>
    </SectionCard>
  );
}
