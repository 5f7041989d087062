import type { User } from '@rideway/contract';
import { REGISTER_REDIRECT_DELAY_MS } from '@rideway/domain';
import { Alert, Button, Stack, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AlertDialog } from '../../components/AlertDialog';
import { FormCard } from '../../components/FormCard';
import { api, errorKey } from '../../api/client';
import { PhoneField, usePhoneNumber } from '../../components/PhoneField';
import { DriverFields, NO_DRIVER, type DriverSignUp } from './DriverFields';

type Form = { firstName: string; lastName: string; email: string; password: string; referralId: string };
const EMPTY: Form = { firstName: '', lastName: '', email: '', password: '', referralId: '' };
const FIELDS = [
  { name: 'firstName', type: 'text', autoComplete: 'given-name' },
  { name: 'lastName', type: 'text', autoComplete: 'family-name' },
  { name: 'email', type: 'email', autoComplete: 'email' },
  { name: 'password', type: 'password', autoComplete: 'new-password' },
] as const;

/** Section 2's register screen, checked by the server with section 5's rules. */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The dial code is the settings' country's until another is picked (issue 17).
  const phone = usePhoneNumber();
  const [form, setForm] = useState<Form>(EMPTY);
  const [usertype, setUsertype] = useState<'rider' | 'driver'>('rider');
  const [driver, setDriver] = useState<DriverSignUp>(NO_DRIVER);
  const [alert, setAlert] = useState<string | null>(null);
  const register = useMutation({ mutationFn: (body: Record<string, string>) => api<{ user: User }>('/api/auth/register', { method: 'POST', body }) });
  // A driver waiting for approval stays on the waiting state: signing in would be refused.
  const waiting = register.data?.user.approved === false;
  // Section 2: after a successful registration the login page follows after a delay.
  useEffect(() => {
    if (!register.isSuccess || waiting) return;
    const timer = setTimeout(() => { void navigate('/login'); }, REGISTER_REDIRECT_DELAY_MS);
    return () => { clearTimeout(timer); };
  }, [register.isSuccess, waiting, navigate]);
  const set = (name: keyof Form) => (event: { target: { value: string } }) => { setForm((current) => ({ ...current, [name]: event.target.value })); };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    // Section 5: a driver uploads the licence image before the form is sent.
    if (usertype === 'driver' && !driver.licenseImage) {
      setAlert(t('licence_needed'));
      return;
    }
    const { referralId, ...rest } = form;
    register.mutate(
      { ...rest, mobile: phone.mobile, usertype, ...(usertype === 'driver' ? driver : {}), ...(referralId.trim() ? { referralId: referralId.trim() } : {}) },
      { onError: (error) => { setAlert(t(errorKey(error))); } },
    );
  };
  return (
    <FormCard title={t('register')} width="sm">
      {register.isSuccess ? (
        <Alert severity={waiting ? 'info' : 'success'} data-testid="registered">
          {waiting ? t('driver_waiting_approval') : t('account_create_successfully')}
        </Alert>
      ) : (
        <Stack component="form" spacing={2} onSubmit={submit} noValidate>
          <ToggleButtonGroup exclusive fullWidth color="primary" value={usertype} onChange={(_event, value: 'rider' | 'driver' | null) => { if (value) setUsertype(value); }} aria-label={t('usertype')}>
            <ToggleButton value="rider">{t('sign_up_to_ride')}</ToggleButton>
            <ToggleButton value="driver">{t('sign_up_to_drive')}</ToggleButton>
          </ToggleButtonGroup>
          {FIELDS.map((field) => (
            <TextField key={field.name} label={t(field.name)} type={field.type} autoComplete={field.autoComplete} value={form[field.name]} onChange={set(field.name)} required />
          ))}
          <PhoneField phone={phone} required />
          {usertype === 'driver' && <DriverFields value={driver} onChange={setDriver} onUnreadable={() => { setAlert(t('photo_unreadable')); }} />}
          <TextField label={t('referralId')} value={form.referralId} onChange={set('referralId')} />
          <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={() => { void navigate(-1); }}>{t('back')}</Button>
            <Button type="submit" variant="contained" disabled={register.isPending}>
              {t('register')}
            </Button>
          </Stack>
        </Stack>
      )}
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </FormCard>
  );
}
