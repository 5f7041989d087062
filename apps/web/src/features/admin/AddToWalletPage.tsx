import { validateAddToWallet } from '@rideway/domain';
import { Button, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../../components/AlertDialog';
import { FormCard } from '../../components/FormCard';
import { api, errorKey, newIdempotencyKey } from '../../api/client';
import { useMoney } from '../../hooks/use-money';
import { UserSelect } from '../../components/UserSelect';

/** Section 2 /addtowallet: an admin credits a rider's or a driver's wallet (section 5: no_details_error). */
export function AddToWalletPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const queryClient = useQueryClient();
  const [uid, setUid] = useState('');
  const [amount, setAmount] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const credit = useMutation({
    mutationFn: (body: { uid: string; amount: number }) => api<{ walletBalance: number }>('/api/wallet/credit', { method: 'POST', body, idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const checked = validateAddToWallet({ uid: uid || undefined, amount: amount === '' ? undefined : Number(amount) });
    if (!checked.ok) {
      setAlert(t(checked.key));
      return;
    }
    credit.mutate(checked.value, {
      onSuccess: (answer) => {
        setAlert(`${t('wallet_credited')} ${money(answer.walletBalance)}`);
        setAmount('');
      },
      onError: (error) => { setAlert(t(errorKey(error))); },
    });
  };
  return (
    <FormCard title={t('menu_add_to_wallet')} width="sm">
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <UserSelect label={t('user')} value={uid} onChange={setUid} />
        <TextField label={t('amount')} type="number" value={amount} onChange={(event) => { setAmount(event.target.value); }} slotProps={{ htmlInput: { min: 0, step: 0.01 } }} />
        <Button type="submit" variant="contained" size="large" disabled={credit.isPending}>
          {t('menu_add_to_wallet')}
        </Button>
      </Stack>
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </FormCard>
  );
}
