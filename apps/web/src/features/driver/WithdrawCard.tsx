import type { User } from '@rideway/contract';
import { Button, Chip, List, ListItem, ListItemText, Stack, TextField } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/FormError';
import { useNotice } from '../../components/NoticeProvider';
import { LinesSkeleton } from '../../components/Skeletons';
import { useDates } from '../../hooks/use-dates';
import { useFormErrors } from '../../hooks/use-form-errors';
import { SectionCard } from '../../components/SectionCard';
import { useRequestWithdraw, useWithdraws, type WithdrawRequest } from '../../api/wallet';
import { useSettings } from '../../api/settings';
import { useMoney } from '../../hooks/use-money';

/** The bank details a withdraw carries when bank_fields is on, with their labels' keys. */
const BANK_FIELDS = { bankName: 'bank_name', bankCode: 'bank_code', bankAccount: 'bank_account' } as const;
const FIELDS = ['amount', 'bankName', 'bankCode', 'bankAccount'] as const;

/**
 * Issue 8: a driver asks to withdraw from the wallet (with the bank details when bank_fields is
 * on, filled from the last request) and follows each request until an admin has processed it.
 */
export function WithdrawCard({ me }: { me: User }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const { data: settings } = useSettings();
  const withdraws = useWithdraws();
  const request = useRequestWithdraw();
  const [amount, setAmount] = useState('');
  const [bank, setBank] = useState({ bankName: me.bankName ?? '', bankCode: me.bankCode ?? '', bankAccount: me.bankAccount ?? '' });
  const notify = useNotice();
  const errors = useFormErrors(FIELDS);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    const body: WithdrawRequest = { amount: Number(amount), ...(settings?.bank_fields ? bank : {}) };
    request.mutate(body, {
      onSuccess: () => {
        setAmount('');
        notify(t('withdraw_requested'));
      },
      onError: errors.show,
    });
  };
  return (
    <SectionCard title={t('withdraw')}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <TextField label={t('amount')} type="number" value={amount} onChange={(event) => { setAmount(event.target.value); errors.clear('amount'); }} slotProps={{ htmlInput: { min: 0, step: 0.01 } }} {...errors.field('amount')} />
        {settings?.bank_fields &&
          Object.entries(BANK_FIELDS).map(([field, label]) => (
            <TextField key={field} label={t(label)} value={bank[field as keyof typeof BANK_FIELDS]} onChange={(event) => { setBank({ ...bank, [field]: event.target.value }); errors.clear(field); }} {...errors.field(field as keyof typeof BANK_FIELDS)} />
          ))}
        <FormError message={errors.formError} />
        <Button type="submit" variant="contained" loading={request.isPending}>
          {t('request_withdraw')}
        </Button>
      </Stack>
      {withdraws.isPending && <LinesSkeleton lines={2} />}
      <List dense aria-label={t('menu_withdraws')} sx={{ mt: 2 }}>
        {withdraws.data?.map((withdraw) => (
          <ListItem key={withdraw.id} disableGutters secondaryAction={<Chip size="small" color={withdraw.processed ? 'success' : 'default'} label={t(withdraw.processed ? 'processed' : withdraw.rejected ? 'withdraw_rejected' : 'withdraw_waiting')} />}>
            <ListItemText primary={money(withdraw.amount, { currency: withdraw.currency })} secondary={dates.dateTime(withdraw.date)} />
          </ListItem>
        ))}
      </List>
    </SectionCard>
  );
}
