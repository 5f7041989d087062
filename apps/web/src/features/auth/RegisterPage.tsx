import type { User } from '@rideway/contract';
import { REGISTER_REDIRECT_DELAY_MS } from '@rideway/domain';
import { Alert, Button, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormCard } from '../../components/FormCard';
import { FormError } from '../../components/FormError';
import { CompanyTerms } from '../../components/CompanyTerms';
import { useSettings } from '../../api/settings';
import { api } from '../../api/client';
import { PhoneField, usePhoneNumber } from '../../components/PhoneField';
import { useFormErrors } from '../../hooks/use-form-errors';
import { DRIVER_FIELDS, DriverFields, NO_DRIVER, type DriverSignUp } from './DriverFields';

type Form = { firstName: string; lastName: string; email: string; password: string; referralId: string };
const EMPTY: Form = { firstName: '', lastName: '', email: '', password: '', referralId: '' };
const FIELDS = [
  { name: 'firstName', type: 'text', autoComplete: 'given-name' },
  { name: 'lastName', type: 'text', autoComplete: 'family-name' },
  { name: 'email', type: 'email', autoComplete: 'email' },
  { name: 'password', type: 'password', autoComplete: 'new-password' },
] as const;
/** Every field an error can land on (issue 17); the server names them as the request does. */
const ERROR_FIELDS = ['firstName', 'lastName', 'email', 'password', 'mobile', 'referralId', ...DRIVER_FIELDS] as const;

/** Section 2's register screen, checked by the server with section 5's rules. */
export function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  // The dial code is the settings' country's until another is picked (issue 17).
  const phone = usePhoneNumber();
  const [form, setForm] = useState<Form>(EMPTY);
  const [usertype, setUsertype] = useState<'rider' | 'driver'>('rider');
  const [driver, setDriver] = useState<DriverSignUp>(NO_DRIVER);
  const errors = useFormErrors(ERROR_FIELDS);
  const { data: settings } = useSettings();
  // Issue 19: the language the app is in goes with the sign-up, so the first messages are in it too.
  const register = useMutation({ mutationFn: (body: Record<string, string>) => api<{ user: User }>('/api/auth/register', { method: 'POST', body: { ...body, language: i18n.language } }) });
  // A driver waiting for approval stays on the waiting state: signing in would be refused.
  const waiting = register.data?.user.approved === false;
  // Section 2: after a successful registration the login page follows after a delay.
  useEffect(() => {
    if (!register.isSuccess || waiting) return;
    const timer = setTimeout(() => { void navigate('/login'); }, REGISTER_REDIRECT_DELAY_MS);
    return () => { clearTimeout(timer); };
  }, [register.isSuccess, waiting, navigate]);
  const set = (name: keyof Form) => (event: { target: { value: string } }) => {
    setForm((current) => ({ ...current, [name]: event.target.value }));
    errors.clear(name);
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    // Section 5: a driver uploads the licence image before the form is sent.
    if (usertype === 'driver' && !driver.licenseImage) {
      errors.set('licence_needed', 'licenseImage');
      return;
    }
    errors.clear();
    const { referralId, ...rest } = form;
    register.mutate(
      { ...rest, mobile: phone.mobile, usertype, ...(usertype === 'driver' ? driver : {}), ...(referralId.trim() ? { referralId: referralId.trim() } : {}) },
      { onError: errors.show },
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
            <TextField key={field.name} label={t(field.name)} type={field.type} autoComplete={field.autoComplete} value={form[field.name]} onChange={set(field.name)} required {...errors.field(field.name)} />
          ))}
          <PhoneField phone={phone} required errorProps={errors.field('mobile')} onTyped={() => { errors.clear('mobile'); }} />
          {usertype === 'driver' && (
            <DriverFields
              value={driver}
              onChange={(next) => {
                setDriver(next);
                errors.clear();
              }}
              onUnreadable={() => { errors.set('photo_unreadable', 'licenseImage'); }}
              errorOf={errors.field}
            />
          )}
          <TextField label={t('referralId')} value={form.referralId} onChange={set('referralId')} {...errors.field('referralId')} />
          {/* Issue 17 point 12: the operator's terms, which registering accepts. */}
          {settings?.CompanyTerms.trim() && (
            <Stack spacing={1}>
              <Typography variant="body2">{t('terms_accept')}</Typography>
              <CompanyTerms terms={settings.CompanyTerms} compact />
            </Stack>
          )}
          <FormError message={errors.formError} />
          <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={() => { void navigate(-1); }}>{t('back')}</Button>
            <Button type="submit" variant="contained" loading={register.isPending}>
              {t('register')}
            </Button>
          </Stack>
        </Stack>
      )}
    </FormCard>
  );
}
