import type { User } from '@rideway/contract';
import { Button, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ME } from '../../api/session';
import { PhoneField, usePhoneNumber } from '../../components/PhoneField';

/** The phone tab: the number (its country the settings' until another is picked), then the code, then verify; cancel starts over. */
export function PhoneSignIn({ onSignedIn, onError }: { onSignedIn: (user: User) => void; onError: (error: unknown) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const phone = usePhoneNumber();
  const [otp, setOtp] = useState('');
  const [verificationId, setVerificationId] = useState<string | null>(null);
  const request = useMutation({ mutationFn: () => api<{ verificationId: string }>('/api/auth/otp/request', { method: 'POST', body: { mobile: phone.mobile } }) });
  const verify = useMutation({ mutationFn: (id: string) => api<{ user: User }>('/api/auth/otp/verify', { method: 'POST', body: { verificationId: id, otp } }) });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (verificationId === null) {
      request.mutate(undefined, { onSuccess: (answer) => { setVerificationId(answer.verificationId); }, onError });
      return;
    }
    verify.mutate(verificationId, {
      onSuccess: ({ user }) => {
        queryClient.setQueryData(ME, user);
        onSignedIn(user);
      },
      onError,
    });
  };
  return (
    <Stack component="form" spacing={2} onSubmit={submit}>
      <PhoneField phone={phone} disabled={verificationId !== null} required />
      {verificationId !== null && <TextField label={t('otp')} value={otp} onChange={(event) => { setOtp(event.target.value); }} required autoFocus inputMode="numeric" autoComplete="one-time-code" />}
      <Button type="submit" variant="contained" size="large" disabled={request.isPending || verify.isPending}>
        {verificationId === null ? t('send_code') : t('verify')}
      </Button>
      {verificationId !== null && (
        <Button onClick={() => { setVerificationId(null); setOtp(''); }}>{t('cancel')}</Button>
      )}
    </Stack>
  );
}
