import type { TwoFactorEnrolment } from '@rideway/contract';
import { Box, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/**
 * Issue 20 point 5: adding an authenticator app, on the profile and at a sign-in that requires
 * it: the QR code to scan, the key to type in instead, grouped by four as the apps show it.
 */
export function AuthenticatorSetup({ enrolment }: { enrolment: TwoFactorEnrolment }) {
  const { t } = useTranslation();
  const grouped = enrolment.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <Stack spacing={1.5} alignItems="flex-start">
      <Typography variant="body2">{t('two_factor_scan')}</Typography>
      {/* A white square with a margin: the apps read dark modules on light. */}
      <Box component="img" src={enrolment.qr} alt={t('two_factor_qr_alt')} data-testid="two-factor-qr" sx={{ width: 200, height: 200, bgcolor: '#fff', p: 1, borderRadius: 1, border: 1, borderColor: 'divider' }} />
      <TextField
        label={t('two_factor_key')}
        value={grouped}
        slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace' } }, htmlInput: { 'data-testid': 'two-factor-key', 'data-secret': enrolment.secret } }}
        fullWidth
      />
    </Stack>
  );
}

/** Recovery codes, shown once: each signs in once in place of a code. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1} component="section" aria-label={t('two_factor_recovery_title')}>
      <Typography variant="subtitle1" component="h3">{t('two_factor_recovery_title')}</Typography>
      <Typography variant="body2">{t('two_factor_recovery_help')}</Typography>
      <Box component="ul" data-testid="recovery-codes" sx={{ m: 0, p: 1.5, listStyle: 'none', display: 'grid', gridTemplateColumns: 'repeat(2, max-content)', columnGap: 4, rowGap: 0.5, fontFamily: 'monospace', bgcolor: 'action.hover', borderRadius: 1 }}>
        {codes.map((code) => <li key={code} dir="ltr">{code}</li>)}
      </Box>
    </Stack>
  );
}
