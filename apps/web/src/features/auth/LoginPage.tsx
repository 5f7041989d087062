import type { User } from '@rideway/contract';
import FacebookIcon from '@mui/icons-material/Facebook';
import { Box, Button, Divider, Link, Stack, Tab, Tabs, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { AlertDialog } from '../../components/AlertDialog';
import { FormCard } from '../../components/FormCard';
import { api, errorKey } from '../../api/client';
import { useLogin } from '../../api/session';
import { useSettings } from '../../api/settings';
import { pathAfterLogin } from '../../utils/return-path';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { PhoneSignIn } from './PhoneSignIn';

/**
 * What a redirect back to /login says: a failed Facebook sign-in (?error=key) or the outcome of
 * an email verification link (?verified=1 or 0).
 */
function arrivalMessage(params: URLSearchParams): string | null {
  const error = params.get('error');
  if (error) return error;
  const verified = params.get('verified');
  if (verified === null) return null;
  return verified === '1' ? 'email_verified' : 'link_expired';
}

/** Section 2's login screen. */
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
  const [alert, setAlert] = useState<string | null>(() => {
    const key = arrivalMessage(params);
    return key ? t(key) : null;
  });
  const methods = useQuery({ queryKey: ['sign-in-methods'], queryFn: () => api<{ facebook: boolean }>('/api/auth/methods') });
  // Back to the page that sent here (?next=, a path of this site only), else section 2's home for the role.
  const signedIn = (user: User) => { void navigate(pathAfterLogin(params.get('next'), user.usertype, window.location.origin), { replace: true }); };
  const failed = (error: unknown) => { setAlert(t(errorKey(error))); };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    login.mutate({ email, password }, { onSuccess: ({ user }) => { signedIn(user); }, onError: failed });
  };
  return (
    <FormCard title={t('sign_in')} width="xs">
      {settings?.MobileLoginEnabled && (
        <Tabs value={tab} onChange={(_event, next: 'email' | 'phone') => { setTab(next); }} sx={{ mb: 2 }}>
          <Tab value="email" label={t('email')} />
          <Tab value="phone" label={t('mobile')} />
        </Tabs>
      )}
      {tab === 'email' ? (
        <Stack component="form" spacing={2} onSubmit={submit}>
          <TextField label={t('email')} type="email" value={email} onChange={(event) => { setEmail(event.target.value); }} required autoComplete="email" />
          <TextField label={t('password')} type="password" value={password} onChange={(event) => { setPassword(event.target.value); }} required autoComplete="current-password" />
          <Button type="submit" variant="contained" size="large" disabled={login.isPending}>
            {t('sign_in')}
          </Button>
        </Stack>
      ) : (
        <PhoneSignIn onSignedIn={signedIn} onError={failed} />
      )}
      {settings?.FacebookLoginEnabled && methods.data?.facebook && (
        <>
          <Divider sx={{ my: 2 }} />
          <Button href="/api/auth/facebook" variant="contained" fullWidth startIcon={<FacebookIcon />} sx={{ bgcolor: '#1877f2', '&:hover': { bgcolor: '#166fe5' } }}>
            {t('continue_with_facebook')}
          </Button>
        </>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mt: 2 }}>
        <Link component="button" type="button" onClick={() => { setForgotOpen(true); }}>
          {t('forgot_password')}
        </Link>
        <Button component={RouterLink} to="/register" variant="outlined">
          {t('register')}
        </Button>
      </Box>
      <ForgotPasswordDialog open={forgotOpen} onClose={() => { setForgotOpen(false); }} onDone={(message) => { setForgotOpen(false); setAlert(message); }} />
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </FormCard>
  );
}
