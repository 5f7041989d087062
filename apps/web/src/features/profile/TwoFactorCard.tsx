import type { TwoFactorEnrolment, TwoFactorStatus } from '@rideway/contract';
import { Alert, Button, Divider, Stack, TextField, Typography } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStartEnrolment, useTwoFactorChange, useTwoFactorStatus } from '../../api/two-factor';
import { AuthenticatorSetup, RecoveryCodes } from '../../components/AuthenticatorSetup';
import { FormError } from '../../components/FormError';
import { useNotice } from '../../components/NoticeProvider';
import { SectionCard } from '../../components/SectionCard';
import { useDates } from '../../hooks/use-dates';
import { useFormErrors } from '../../hooks/use-form-errors';

const CODE = ['code'] as const;
const CODE_OR_PASSWORD = ['code', 'password'] as const;

/**
 * Issue 20 point 5: an admin's or fleet admin's two-factor sign-in. Off: set up an authenticator
 * (QR code or key, then a current code turns it on and shows the recovery codes once). On: new
 * recovery codes on a current code, or off on a code or the password (not while the operator
 * requires it).
 */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <SectionCard title={t('two_factor_title')}>
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">{t('two_factor_intro')}</Typography>
        {status.data && <StatusLine status={status.data} />}
        {codes && (
          <>
            <RecoveryCodes codes={codes} />
            <Button variant="outlined" onClick={() => { setCodes(null); }} sx={{ alignSelf: 'flex-start' }}>{t('two_factor_recovery_saved')}</Button>
          </>
        )}
        {status.data && !codes && (status.data.enabled ? <Enabled status={status.data} onCodes={setCodes} /> : <Enrol onCodes={setCodes} />)}
      </Stack>
    </SectionCard>
  );
}

function StatusLine({ status }: { status: TwoFactorStatus }) {
  const { t } = useTranslation();
  const dates = useDates();
  return (
    <Stack spacing={1}>
      <Typography variant="body1" data-testid="two-factor-status">
        {status.enabled && status.enabledAt !== null ? t('two_factor_on_since', { date: dates.date(status.enabledAt) }) : t('two_factor_off')}
        {status.enabled && ` · ${t('two_factor_codes_left', { count: status.recoveryCodesLeft })}`}
      </Typography>
      {status.required && <Alert severity="info">{t('two_factor_required_note')}</Alert>}
    </Stack>
  );
}

function Enrol({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const start = useStartEnrolment();
  const confirm = useTwoFactorChange<{ code: string }, { recoveryCodes: string[] }>('confirm');
  const errors = useFormErrors(CODE);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [code, setCode] = useState('');
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    confirm.mutate({ code: code.trim() }, {
      onSuccess: ({ recoveryCodes }) => {
        setEnrolment(null);
        setCode('');
        notify(t('two_factor_enabled_done'));
        onCodes(recoveryCodes);
      },
      onError: errors.show,
    });
  };
  if (!enrolment) {
    return (
      <Stack spacing={1}>
        <FormError message={errors.formError} />
        <Button variant="contained" loading={start.isPending} sx={{ alignSelf: 'flex-start' }} onClick={() => { start.mutate({}, { onSuccess: setEnrolment, onError: errors.show }); }}>
          {t('two_factor_start')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label={t('two_factor_start')}>
      <AuthenticatorSetup enrolment={enrolment} />
      <TextField label={t('two_factor_code')} value={code} required autoComplete="one-time-code" inputMode="numeric" onChange={(event) => { setCode(event.target.value); errors.clear('code'); }} {...errors.field('code')} />
      <FormError message={errors.formError} />
      <Button type="submit" variant="contained" loading={confirm.isPending} sx={{ alignSelf: 'flex-start' }}>{t('two_factor_turn_on')}</Button>
    </Stack>
  );
}

function Enabled({ status, onCodes }: { status: TwoFactorStatus; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const regenerate = useTwoFactorChange<{ code: string }, { recoveryCodes: string[] }>('recovery-codes');
  const disable = useTwoFactorChange<{ code?: string; password?: string }, undefined>('disable');
  const regenerateErrors = useFormErrors(CODE);
  const disableErrors = useFormErrors(CODE_OR_PASSWORD);
  const [regenerateCode, setRegenerateCode] = useState('');
  const [off, setOff] = useState({ code: '', password: '' });
  const submitRegenerate = (event: SyntheticEvent) => {
    event.preventDefault();
    regenerateErrors.clear();
    regenerate.mutate({ code: regenerateCode.trim() }, {
      onSuccess: ({ recoveryCodes }) => {
        setRegenerateCode('');
        onCodes(recoveryCodes);
      },
      onError: regenerateErrors.show,
    });
  };
  const submitDisable = (event: SyntheticEvent) => {
    event.preventDefault();
    disableErrors.clear();
    const body = off.code.trim() !== '' ? { code: off.code.trim() } : { password: off.password };
    disable.mutate(body, {
      onSuccess: () => {
        setOff({ code: '', password: '' });
        notify(t('two_factor_disabled_done'));
      },
      onError: disableErrors.show,
    });
  };
  return (
    <Stack spacing={2}>
      <Stack component="form" spacing={1.5} onSubmit={submitRegenerate} noValidate aria-label={t('two_factor_regenerate')}>
        <Typography variant="body2">{t('two_factor_regenerate_help')}</Typography>
        <TextField label={t('two_factor_code')} value={regenerateCode} required autoComplete="one-time-code" inputMode="numeric" onChange={(event) => { setRegenerateCode(event.target.value); regenerateErrors.clear('code'); }} {...regenerateErrors.field('code')} />
        <FormError message={regenerateErrors.formError} />
        <Button type="submit" variant="outlined" loading={regenerate.isPending} sx={{ alignSelf: 'flex-start' }}>{t('two_factor_regenerate')}</Button>
      </Stack>
      {!status.required && (
        <>
          <Divider />
          <Stack component="form" spacing={1.5} onSubmit={submitDisable} noValidate aria-label={t('two_factor_turn_off')}>
            <Typography variant="body2">{t('two_factor_turn_off_help')}</Typography>
            <TextField label={t('two_factor_code')} value={off.code} autoComplete="one-time-code" onChange={(event) => { setOff((current) => ({ ...current, code: event.target.value })); disableErrors.clear('code'); }} {...disableErrors.field('code')} />
            <TextField label={t('password')} type="password" value={off.password} autoComplete="current-password" onChange={(event) => { setOff((current) => ({ ...current, password: event.target.value })); disableErrors.clear('password'); }} {...disableErrors.field('password')} />
            <FormError message={disableErrors.formError} />
            <Button type="submit" variant="outlined" color="error" loading={disable.isPending} sx={{ alignSelf: 'flex-start' }}>{t('two_factor_turn_off')}</Button>
          </Stack>
        </>
      )}
    </Stack>
  );
}
