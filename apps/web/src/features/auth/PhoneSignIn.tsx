import type { User } from '@rideway/contract';
import { Button, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ME } from '../../api/session';
import { isSecondStep, type SecondStepAnswer } from '../../api/two-factor';
import { FormError } from '../../components/FormError';
import { PhoneField, usePhoneNumber } from '../../components/PhoneField';
import { useFormErrors } from '../../hooks/use-form-errors';

const FIELDS = ['mobile', 'otp'] as const;

/**
 * The phone tab: the number (its country the settings' until another is picked), then the code,
 * then verify; cancel starts over. A refusal shows on the number or the code (issue 17).
 */
export function PhoneSignIn({ onSignedIn, onSecondStep }: { onSignedIn: (user: User) => void; onSecondStep: (answer: SecondStepAnswer) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const phone = usePhoneNumber();
  const [otp, setOtp] = useState('');
  const [verificationId, setVerificationId] = useState<string | null>(null);
  const errors = useFormErrors(FIELDS);
  const onError = errors.show;
  const request = useMutation({ mutationFn: () => api<{ verificationId: string }>('/api/auth/otp/request', { method: 'POST', body: { mobile: phone.mobile } }) });
  const verify = useMutation({ mutationFn: (id: string) => api<{ user: User } | SecondStepAnswer>('/api/auth/otp/verify', { method: 'POST', body: { verificationId: id, otp } }) });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    if (verificationId === null) {
      request.mutate(undefined, { onSuccess: (answer) => { setVerificationId(answer.verificationId); }, onError });
      return;
    }
    verify.mutate(verificationId, {
      onSuccess: (answer) => {
        // Issue 20 point 5: the SMS code is a first factor only for staff with two-factor sign-in.
        if (isSecondStep(answer)) {
          onSecondStep(answer);
          return;
        }
        queryClient.setQueryData(ME, answer.user);
        onSignedIn(answer.user);
      },
      onError,
    });
  };
  return (
    <Stack component="form" spacing={2} onSubmit={submit}>
      <PhoneField phone={phone} disabled={verificationId !== null} required errorProps={errors.field('mobile')} onTyped={() => { errors.clear('mobile'); }} />
      {verificationId !== null && <TextField label={t('otp')} value={otp} onChange={(event) => { setOtp(event.target.value); errors.clear('otp'); }} required autoFocus inputMode="numeric" autoComplete="one-time-code" {...errors.field('otp')} />}
      <FormError message={errors.formError} />
      <Button type="submit" variant="contained" size="large" loading={request.isPending || verify.isPending}>
        {verificationId === null ? t('send_code') : t('verify')}
      </Button>
      {verificationId !== null && (
        <Button onClick={() => { setVerificationId(null); setOtp(''); errors.clear(); }}>{t('cancel')}</Button>
      )}
    </Stack>
  );
}
