import { pathAfterLogin } from '@rideway/domain';
import { Button, Link, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { AuthenticatorSetup, RecoveryCodes } from '../../components/AuthenticatorSetup';
import { FormCard } from '../../components/FormCard';
import { FormError } from '../../components/FormError';
import { useEnrolAtSignIn, useSecondStep } from '../../api/two-factor';
import { useFormErrors } from '../../hooks/use-form-errors';

const FIELDS = ['code'] as const;

/**
 * Issue 20 point 5: the second step of a staff member's sign-in, whichever way the first went
 * (password, SMS code, Facebook, Google, Apple). The challenge is an httpOnly cookie the sign-in
 * set; this page only asks for the code. With ?enrol=1 (the operator requires two-factor sign-in
 * and this account has none yet) it first adds an authenticator, and shows the recovery codes once
 * the first code is in, before going on.
 */
export function TwoFactorPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const enrolling = params.get('enrol') === '1';
  const enrol = useEnrolAtSignIn();
  const verify = useSecondStep();
  const errors = useFormErrors(FIELDS);
  const [code, setCode] = useState('');
  const [shown, setShown] = useState<{ codes: string[]; landing: string } | null>(null);
  const { mutate: startEnrolment } = enrol;
  const { show: showError } = errors;
  useEffect(() => {
    if (enrolling) startEnrolment(undefined, { onError: showError });
  }, [enrolling, startEnrolment, showError]);

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    verify.mutate(code.trim(), {
      onSuccess: ({ user, landing, recoveryCodes }) => {
        // The page the sign-in started from (?next=, a path of this site only), else where the server says.
        const next = params.get('next');
        const target = next ? pathAfterLogin(next, user.usertype, window.location.origin) : landing;
        if (recoveryCodes) setShown({ codes: recoveryCodes, landing: target });
        else void navigate(target, { replace: true });
      },
      onError: errors.show,
    });
  };

  if (shown) {
    return (
      <FormCard title={t('two_factor_title')} width="sm">
        <Stack spacing={2}>
          <RecoveryCodes codes={shown.codes} />
          <Button variant="contained" onClick={() => { void navigate(shown.landing, { replace: true }); }}>{t('two_factor_recovery_saved')}</Button>
        </Stack>
      </FormCard>
    );
  }
  return (
    <FormCard title={t('two_factor_title')} width={enrolling ? 'sm' : 'xs'}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <Typography variant="body2">{t(enrolling ? 'two_factor_enrol_help' : 'two_factor_sign_in_help')}</Typography>
        {enrolling && enrol.data && <AuthenticatorSetup enrolment={enrol.data} />}
        <TextField
          label={t('two_factor_code')}
          value={code}
          onChange={(event) => { setCode(event.target.value); errors.clear('code'); }}
          required
          autoFocus
          autoComplete="one-time-code"
          inputMode={enrolling ? 'numeric' : 'text'}
          {...errors.field('code')}
          helperText={errors.field('code').helperText ?? (enrolling ? undefined : t('two_factor_code_help'))}
        />
        <FormError message={errors.formError} />
        <Button type="submit" variant="contained" size="large" loading={verify.isPending} disabled={enrolling && !enrol.data}>
          {t(enrolling ? 'two_factor_turn_on' : 'verify')}
        </Button>
        <Link component={RouterLink} to="/login">{t('two_factor_back')}</Link>
      </Stack>
    </FormCard>
  );
}
