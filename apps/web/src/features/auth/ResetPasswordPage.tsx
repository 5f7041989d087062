import { validatePassword } from '@rideway/domain';
import { Alert, Button, Stack, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { api, ApiError, errorKey } from '../../api/client';
import { FormCard } from '../../components/FormCard';

/**
 * Section 2's mailed reset link (/reset-password?token=...): a new password under the spec's rules,
 * then sign in. A link that expired or was used (the server answers not_found) says so.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = useMutation({ mutationFn: (body: { token: string; password: string }) => api<{ ok: true }>('/api/auth/password-reset/confirm', { method: 'POST', body }) });
  const linkDead = !token || (confirm.error instanceof ApiError && confirm.error.field === 'token') || errorKey(confirm.error) === 'not_found';

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const checked = validatePassword(password);
    if (!checked.ok) {
      setProblem(t(checked.key));
      return;
    }
    setProblem(null);
    confirm.mutate({ token, password });
  };

  if (confirm.isSuccess) {
    return (
      <FormCard title={t('reset_password_title')} width="xs">
        <Alert severity="success" sx={{ mb: 2 }}>{t('password_changed')}</Alert>
        <Button component={RouterLink} to="/login" variant="contained" fullWidth>{t('sign_in')}</Button>
      </FormCard>
    );
  }
  if (linkDead) {
    return (
      <FormCard title={t('reset_password_title')} width="xs">
        <Alert severity="error" sx={{ mb: 2 }}>{t('reset_link_invalid')}</Alert>
        <Button component={RouterLink} to="/login" variant="outlined" fullWidth>{t('sign_in')}</Button>
      </FormCard>
    );
  }
  const shown = problem ?? (confirm.error ? t(errorKey(confirm.error)) : null);
  return (
    <FormCard title={t('reset_password_title')} width="xs">
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <TextField
          label={t('new_password')}
          type="password"
          value={password}
          onChange={(event) => { setPassword(event.target.value); setProblem(null); }}
          required
          autoComplete="new-password"
          error={Boolean(shown)}
          helperText={shown ?? ' '}
        />
        <Button type="submit" variant="contained" size="large" loading={confirm.isPending}>
          {t('reset')}
        </Button>
      </Stack>
    </FormCard>
  );
}
