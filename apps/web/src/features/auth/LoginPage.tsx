import type { User } from '@rideway/contract';
import { Box, Button, Link, Stack, Tab, Tabs, TextField } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { AlertDialog } from '../../app/AlertDialog';
import { FormCard } from '../../app/FormCard';
import { errorKey } from '../../api/client';
import { useLogin } from '../../api/session';
import { useSettings } from '../../api/settings';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { PhoneSignIn } from './PhoneSignIn';
import { homeAfterSignIn } from './redirect';

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
  const [alert, setAlert] = useState<string | null>(null);
  const signedIn = (user: User) => { void navigate(homeAfterSignIn(user.usertype)); };
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
