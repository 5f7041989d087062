import type { User } from '@rideway/contract';
import { pathAfterLogin, safeReturnPath } from '@rideway/domain';
import AppleIcon from '@mui/icons-material/Apple';
import FacebookIcon from '@mui/icons-material/Facebook';
import GoogleIcon from '@mui/icons-material/Google';
import { Alert, Box, Button, Divider, Link, Stack, Tab, Tabs, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { FormCard } from '../../components/FormCard';
import { FormError } from '../../components/FormError';
import { api } from '../../api/client';
import { useLogin } from '../../api/session';
import { isSecondStep, secondStepPath, type SecondStepAnswer } from '../../api/two-factor';
import { useSettings } from '../../api/settings';
import { useFormErrors } from '../../hooks/use-form-errors';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { PhoneSignIn } from './PhoneSignIn';

/**
 * What a redirect back to /login says: a failed Facebook, Google or Apple sign-in (?error=key) or the outcome of
 * an email verification link (?verified=1 or 0).
 */
function arrivalMessage(params: URLSearchParams): string | null {
  const error = params.get('error');
  if (error) return error;
  const verified = params.get('verified');
  if (verified === null) return null;
  return verified === '1' ? 'email_verified' : 'link_expired';
}

const FIELDS = ['email', 'password'] as const;

/** Section 2's login screen; a refusal shows on its field, or above the button when it is no one field's (issue 17). */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: settings } = useSettings();
  const login = useLogin();
  const [tab, setTab] = useState<'email' | 'phone'>('email');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [forgotOpen, setForgotOpen] = useState(false);
  const [params] = useSearchParams();
  const [arrival, setArrival] = useState(() => arrivalMessage(params));
  const errors = useFormErrors(FIELDS);
  const methods = useQuery({ queryKey: ['sign-in-methods'], queryFn: () => api<{ facebook: boolean; google?: boolean; apple?: boolean }>('/api/auth/methods') });
  // Issue 20: Google and Apple sign-in start on the server (a navigation), which returns to `next` when it is ours.
  const next = safeReturnPath(params.get('next'), window.location.origin);
  const startOf = (provider: 'google' | 'apple') => `/api/auth/${provider}/start${next === null ? '' : `?next=${encodeURIComponent(next)}`}`;
  const google = Boolean(settings?.GoogleLoginEnabled && methods.data?.google);
  const apple = Boolean(settings?.AppleLoginEnabled && methods.data?.apple);
  const facebook = Boolean(settings?.FacebookLoginEnabled && methods.data?.facebook);
  // Back to the page that sent here (?next=, a path of this site only), else section 2's home for the role.
  const signedIn = (user: User) => { void navigate(pathAfterLogin(params.get('next'), user.usertype, window.location.origin), { replace: true }); };
  // Issue 20 point 5: a staff member's second step (a code, or enrolling first) on a page of its own.
  const secondStep = (answer: SecondStepAnswer) => { void navigate(secondStepPath(answer, next)); };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    setArrival(null);
    login.mutate({ email, password }, {
      onSuccess: (answer) => {
        if (isSecondStep(answer)) secondStep(answer);
        else signedIn(answer.user);
      },
      onError: errors.show,
    });
  };
  return (
    <FormCard title={t('sign_in')} width="xs">
      {arrival && (
        <Alert severity={arrival === 'email_verified' ? 'success' : 'error'} onClose={() => { setArrival(null); }} sx={{ mb: 2 }} data-testid="arrival">
          {t(arrival)}
        </Alert>
      )}
      {settings?.MobileLoginEnabled && (
        <Tabs value={tab} onChange={(_event, next: 'email' | 'phone') => { setTab(next); }} sx={{ mb: 2 }}>
          <Tab value="email" label={t('email')} />
          <Tab value="phone" label={t('mobile')} />
        </Tabs>
      )}
      {tab === 'email' ? (
        <Stack component="form" spacing={2} onSubmit={submit}>
          <TextField label={t('email')} type="email" value={email} onChange={(event) => { setEmail(event.target.value); errors.clear('email'); }} required autoComplete="email" {...errors.field('email')} />
          <TextField label={t('password')} type="password" value={password} onChange={(event) => { setPassword(event.target.value); errors.clear('password'); }} required autoComplete="current-password" {...errors.field('password')} />
          <FormError message={errors.formError} />
          <Button type="submit" variant="contained" size="large" loading={login.isPending}>
            {t('sign_in')}
          </Button>
        </Stack>
      ) : (
        <PhoneSignIn onSignedIn={signedIn} onSecondStep={secondStep} />
      )}
      {(facebook || google || apple) && <Divider sx={{ my: 2 }} />}
      {(facebook || google || apple) && (
        <Stack spacing={1.5}>
          {facebook && (
            <Button href="/api/auth/facebook" variant="contained" fullWidth startIcon={<FacebookIcon />} sx={{ bgcolor: '#1877f2', '&:hover': { bgcolor: '#166fe5' } }}>
              {t('continue_with_facebook')}
            </Button>
          )}
          {google && (
            <Button href={startOf('google')} variant="outlined" fullWidth startIcon={<GoogleIcon />} sx={{ color: '#1f1f1f', borderColor: '#747775', bgcolor: '#fff', '&:hover': { bgcolor: '#f8f9fa', borderColor: '#747775' } }}>
              {t('continue_with_google')}
            </Button>
          )}
          {apple && (
            <Button href={startOf('apple')} variant="contained" fullWidth startIcon={<AppleIcon />} sx={{ bgcolor: '#000', color: '#fff', '&:hover': { bgcolor: '#222' } }}>
              {t('continue_with_apple')}
            </Button>
          )}
        </Stack>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mt: 2 }}>
        <Link component="button" type="button" onClick={() => { setForgotOpen(true); }}>
          {t('forgot_password')}
        </Link>
        <Button component={RouterLink} to="/register" variant="outlined">
          {t('register')}
        </Button>
      </Box>
      <ForgotPasswordDialog open={forgotOpen} onClose={() => { setForgotOpen(false); }} />
    </FormCard>
  );
}
