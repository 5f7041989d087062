import type { User } from '@rideway/contract';
import { Button, Card, CardContent, Chip, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../../app/AlertDialog';
import { dateTimeText } from '../../app/date-text';
import { errorKey } from '../../api/client';
import { useRequestWithdraw, useWithdraws, type WithdrawRequest } from '../../api/driver';
import { useSettings } from '../../api/settings';
import { useMoney } from '../booking/money';

const BANK_FIELDS = ['bankName', 'bankCode', 'bankAccount'] as const;

/**
 * Issue 8: a driver asks to withdraw from the wallet (with the bank details when bank_fields is
 * on, filled from the last request) and follows each request until an admin has processed it.
 */
export function WithdrawCard({ me }: { me: User }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const { data: settings } = useSettings();
  const withdraws = useWithdraws();
  const request = useRequestWithdraw();
  const [amount, setAmount] = useState('');
  const [bank, setBank] = useState({ bankName: me.bankName ?? '', bankCode: me.bankCode ?? '', bankAccount: me.bankAccount ?? '' });
  const [alert, setAlert] = useState<string | null>(null);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const body: WithdrawRequest = { amount: Number(amount), ...(settings?.bank_fields ? bank : {}) };
    request.mutate(body, {
      onSuccess: () => {
        setAmount('');
        setAlert(t('withdraw_requested'));
      },
      onError: (error) => { setAlert(t(errorKey(error))); },
    });
  };
  return (
    <Card variant="outlined" component="section" aria-labelledby="withdraw-title">
      <CardContent>
        <Typography id="withdraw-title" variant="h6" component="h2" gutterBottom>
          {t('withdraw')}
        </Typography>
        <Stack component="form" spacing={2} onSubmit={submit} noValidate>
          <TextField label={t('amount')} type="number" value={amount} onChange={(event) => { setAmount(event.target.value); }} slotProps={{ htmlInput: { min: 0, step: 0.01 } }} />
          {settings?.bank_fields &&
            BANK_FIELDS.map((field) => (
              <TextField key={field} label={t(field === 'bankName' ? 'bank_name' : field === 'bankCode' ? 'bank_code' : 'bank_account')} value={bank[field]} onChange={(event) => { setBank({ ...bank, [field]: event.target.value }); }} />
            ))}
          <Button type="submit" variant="contained" disabled={request.isPending}>
            {t('request_withdraw')}
          </Button>
        </Stack>
        <List dense aria-label={t('menu_withdraws')} sx={{ mt: 2 }}>
          {withdraws.data?.map((withdraw) => (
            <ListItem key={withdraw.id} disableGutters secondaryAction={<Chip size="small" color={withdraw.processed ? 'success' : 'default'} label={t(withdraw.processed ? 'processed' : 'withdraw_waiting')} />}>
              <ListItemText primary={money(withdraw.amount)} secondary={dateTimeText(withdraw.date, i18n.language)} />
            </ListItem>
          ))}
        </List>
      </CardContent>
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </Card>
  );
}
