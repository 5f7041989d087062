import type { User } from '@rideway/contract';
import { editableProfileFields, OWN_PROFILE_FIELDS } from '@rideway/domain';
import { Button, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../../components/AlertDialog';
import { FormCard } from '../../components/FormCard';
import { api, errorKey } from '../../api/client';
import { ME, useMe } from '../../api/session';
import { PhoneField, usePhoneNumber } from '../../components/PhoneField';
import { SavedCardsCard } from './SavedCardsCard';
import { WalletCard } from './WalletCard';

/** A driver's own sections below the wallet (its earnings and withdraws), passed in by the app. */
type DriverCards = (me: User) => ReactNode;

/** Section 5: edit the own profile; email and mobile stay fixed for email-login users. */
export function ProfilePage({ driverCards }: { driverCards: DriverCards }) {
  const { data: me } = useMe();
  return me ? <ProfileForm me={me} driverCards={driverCards} /> : null;
}

function ProfileForm({ me, driverCards }: { me: User; driverCards: DriverCards }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const editable = editableProfileFields(me.loginType === 'email');
  const [form, setForm] = useState({ firstName: me.firstName, lastName: me.lastName, email: me.email });
  // The number with its country picker (issue 17), split from the stored digits.
  const phone = usePhoneNumber(me.mobile);
  const [alert, setAlert] = useState<string | null>(null);
  const save = useMutation({ mutationFn: (body: Record<string, string>) => api<{ user: User }>('/api/me', { method: 'PATCH', body }) });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const changes = Object.fromEntries(editable.map((field) => [field, field === 'mobile' ? phone.mobile : form[field]]));
    save.mutate(changes, {
      onSuccess: ({ user }) => {
        queryClient.setQueryData(ME, user);
        setAlert(t('profile_updated'));
      },
      onError: (error) => { setAlert(t(errorKey(error))); },
    });
  };
  return (
    <FormCard title={t('profile')} width="sm">
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        {OWN_PROFILE_FIELDS.map((field) =>
          field === 'mobile' ? (
            <PhoneField key={field} phone={phone} disabled={!editable.includes(field)} />
          ) : (
            <TextField
              key={field}
              label={t(field)}
              value={form[field]}
              disabled={!editable.includes(field)}
              onChange={(event) => { setForm((current) => ({ ...current, [field]: event.target.value })); }}
            />
          ),
        )}
        <TextField label={t('usertype')} value={t(`usertype_${me.usertype}`)} disabled />
        <Button type="submit" variant="contained" disabled={save.isPending}>
          {t('save')}
        </Button>
      </Stack>
      {(me.usertype === 'rider' || me.usertype === 'driver') && (
        <Stack spacing={2} sx={{ mt: 3 }}>
          <WalletCard canTopUp={me.usertype === 'rider'} />
          {me.usertype === 'rider' && <SavedCardsCard />}
          {me.usertype === 'driver' && driverCards(me)}
        </Stack>
      )}
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </FormCard>
  );
}
