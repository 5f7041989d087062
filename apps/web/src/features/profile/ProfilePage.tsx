import type { User } from '@rideway/contract';
import { editableProfileFields, OWN_PROFILE_FIELDS } from '@rideway/domain';
import { Button, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormCard } from '../../components/FormCard';
import { FormError } from '../../components/FormError';
import { useNotice } from '../../components/NoticeProvider';
import { api } from '../../api/client';
import { useFormErrors } from '../../hooks/use-form-errors';
import { ME, useMe } from '../../api/session';
import { PhoneField, usePhoneNumber } from '../../components/PhoneField';
import { SavedCardsCard } from './SavedCardsCard';
import { SavedPlacesCard } from './SavedPlacesCard';
import { WalletCard } from './WalletCard';
import { NotificationPreferencesCard } from './NotificationPreferencesCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { MyDataCard } from './MyDataCard';
import { PasswordCard } from './PasswordCard';
import { PhotoCard } from './PhotoCard';
import { TwoFactorCard } from './TwoFactorCard';

/** A driver's own sections below the wallet (its earnings and withdraws), passed in by the app. */
type DriverCards = (me: User) => ReactNode;

/** Section 5: edit the own profile; email and mobile stay fixed for email-login users. */
export function ProfilePage({ driverCards }: { driverCards: DriverCards }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  // Issue 17: the form's shape while the profile loads, not an empty page.
  return me ? <ProfileForm me={me} driverCards={driverCards} /> : <FormCard title={t('profile')} width="sm" loading>{null}</FormCard>;
}

function ProfileForm({ me, driverCards }: { me: User; driverCards: DriverCards }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const editable = editableProfileFields(me.loginType === 'email');
  const [form, setForm] = useState({ firstName: me.firstName, lastName: me.lastName, email: me.email });
  // The number with its country picker (issue 17), split from the stored digits.
  const phone = usePhoneNumber(me.mobile);
  const notify = useNotice();
  const errors = useFormErrors(OWN_PROFILE_FIELDS);
  const save = useMutation({ mutationFn: (body: Record<string, string>) => api<{ user: User }>('/api/me', { method: 'PATCH', body }) });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    const changes = Object.fromEntries(editable.map((field) => [field, field === 'mobile' ? phone.mobile : form[field]]));
    save.mutate(changes, {
      onSuccess: ({ user }) => {
        queryClient.setQueryData(ME, user);
        notify(t('profile_updated'));
      },
      onError: errors.show,
    });
  };
  return (
    <FormCard title={t('profile')} width="sm">
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        {OWN_PROFILE_FIELDS.map((field) =>
          field === 'mobile' ? (
            <PhoneField key={field} phone={phone} disabled={!editable.includes(field)} errorProps={errors.field(field)} onTyped={() => { errors.clear(field); }} />
          ) : (
            <TextField
              key={field}
              label={t(field)}
              value={form[field]}
              disabled={!editable.includes(field)}
              onChange={(event) => {
                setForm((current) => ({ ...current, [field]: event.target.value }));
                errors.clear(field);
              }}
              {...errors.field(field)}
            />
          ),
        )}
        <TextField label={t('usertype')} value={t(`usertype_${me.usertype}`)} disabled />
        <FormError message={errors.formError} />
        <Button type="submit" variant="contained" loading={save.isPending}>
          {t('save')}
        </Button>
      </Stack>
      {/* Issue 20: the photo, first below the names it goes with. */}
      <Stack spacing={2} sx={{ mt: 3 }}>
        <PhotoCard me={me} />
      </Stack>
      {(me.usertype === 'rider' || me.usertype === 'driver') && (
        <Stack spacing={2} sx={{ mt: 2 }}>
          <WalletCard canTopUp={me.usertype === 'rider'} />
          {me.usertype === 'rider' && <SavedPlacesCard />}
          {me.usertype === 'rider' && <SavedCardsCard />}
          {me.usertype === 'driver' && driverCards(me)}
          <NotificationPreferencesCard />
        </Stack>
      )}
      {/* Issue 20 point 2: every account's password, data and, last, the danger zone. */}
      <Stack spacing={2} sx={{ mt: 2 }}>
        <PasswordCard me={me} />
        {/* Issue 20 point 5: staff accounts' second step at sign-in. */}
        {(me.usertype === 'admin' || me.usertype === 'fleetadmin') && <TwoFactorCard />}
        <MyDataCard />
        <DeleteAccountCard me={me} />
      </Stack>
    </FormCard>
  );
}
