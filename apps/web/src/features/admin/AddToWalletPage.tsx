import { validateAddToWallet } from '@rideway/domain';
import { Button, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormCard } from '../../components/FormCard';
import { FormError } from '../../components/FormError';
import { useNotice } from '../../components/NoticeProvider';
import { api, newIdempotencyKey } from '../../api/client';
import { useFormErrors } from '../../hooks/use-form-errors';
import { useMoney } from '../../hooks/use-money';
import { UserSelect } from '../../components/UserSelect';

const FIELDS = ['uid', 'amount'] as const;

/** Section 2 /addtowallet: an admin credits a rider's or a driver's wallet (section 5: no_details_error). */
export function AddToWalletPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const queryClient = useQueryClient();
  const [uid, setUid] = useState('');
  const [amount, setAmount] = useState('');
  const notify = useNotice();
  const errors = useFormErrors(FIELDS);
  const credit = useMutation({
    mutationFn: (body: { uid: string; amount: number }) => api<{ walletBalance: number }>('/api/wallet/credit', { method: 'POST', body, idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    const checked = validateAddToWallet({ uid: uid || undefined, amount: amount === '' ? undefined : Number(amount) });
    if (!checked.ok) {
      // One key for both (section 5): it shows on the user when none is chosen, else on the amount.
      errors.set(checked.key, uid ? 'amount' : 'uid');
      return;
    }
    credit.mutate(checked.value, {
      onSuccess: (answer) => {
        notify(`${t('wallet_credited')} ${money(answer.walletBalance)}`);
        setAmount('');
      },
      onError: errors.show,
    });
  };
  return (
    <FormCard title={t('menu_add_to_wallet')} width="sm">
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <UserSelect label={t('user')} value={uid} onChange={(next) => { setUid(next); errors.clear('uid'); }} errorProps={errors.field('uid')} />
        <TextField label={t('amount')} type="number" value={amount} onChange={(event) => { setAmount(event.target.value); errors.clear('amount'); }} slotProps={{ htmlInput: { min: 0, step: 0.01 } }} {...errors.field('amount')} />
        <FormError message={errors.formError} />
        <Button type="submit" variant="contained" size="large" loading={credit.isPending}>
          {t('menu_add_to_wallet')}
        </Button>
      </Stack>
    </FormCard>
  );
}
