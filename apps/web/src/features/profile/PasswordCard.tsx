import type { User } from '@rideway/contract';
import { Button, Stack, TextField, Typography } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usePasswordChange } from '../../api/account';
import { FormError } from '../../components/FormError';
import { useNotice } from '../../components/NoticeProvider';
import { SectionCard } from '../../components/SectionCard';
import { useFormErrors } from '../../hooks/use-form-errors';

const FIELDS = ['currentPassword', 'newPassword'] as const;

/**
 * Issue 20: a new password, with the current one. An account that signs in by phone or a social
 * provider may have none yet: it leaves the current one empty (the server decides, decisions.md).
 * The other devices are signed out; this one stays.
 */
export function PasswordCard({ me }: { me: User }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const change = usePasswordChange();
  const errors = useFormErrors(FIELDS);
  const [form, setForm] = useState({ currentPassword: '', newPassword: '' });
  const passwordLogin = me.loginType === 'email';
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    const body = { newPassword: form.newPassword, ...(form.currentPassword === '' && !passwordLogin ? {} : { currentPassword: form.currentPassword }) };
    change.mutate(body, {
      onSuccess: () => {
        setForm({ currentPassword: '', newPassword: '' });
        notify(t('password_change_done'));
      },
      onError: errors.show,
    });
  };
  const input = (field: (typeof FIELDS)[number], autoComplete: string) => (
    <TextField
      label={t(field === 'currentPassword' ? 'current_password' : 'new_password')}
      type="password"
      autoComplete={autoComplete}
      value={form[field]}
      required={field === 'newPassword' || passwordLogin}
      onChange={(event) => {
        setForm((current) => ({ ...current, [field]: event.target.value }));
        errors.clear(field);
      }}
      {...errors.field(field)}
    />
  );
  return (
    <SectionCard title={t('change_password')}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label={t('change_password')}>
        {!passwordLogin && <Typography variant="body2" color="text.secondary">{t('set_password_help')}</Typography>}
        {/* A password manager files the change under the account's email. */}
        <input type="text" name="username" autoComplete="username" value={me.email} readOnly hidden />
        {input('currentPassword', 'current-password')}
        {input('newPassword', 'new-password')}
        <FormError message={errors.formError} />
        <Button type="submit" variant="outlined" loading={change.isPending} sx={{ alignSelf: 'flex-start' }}>
          {t('change_password')}
        </Button>
      </Stack>
    </SectionCard>
  );
}
