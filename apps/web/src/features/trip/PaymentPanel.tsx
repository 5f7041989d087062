import type { Booking, User } from '@rideway/contract';
import { Alert, Button, Link, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorKey } from '../../api/client';
import { useAdminRefund, useBookingPayments } from '../../api/payments';
import { useMoney } from '../../hooks/use-money';
import { DashboardRefund } from './DashboardRefund';

const PAID = new Set(['PAID', 'COMPLETE']);
const RESULTS: Record<string, { severity: 'success' | 'info' | 'warning'; key: string }> = {
  paid: { severity: 'success', key: 'payment_result_paid' },
  pending: { severity: 'info', key: 'payment_result_pending' },
  failed: { severity: 'warning', key: 'payment_result_failed' },
  cancelled: { severity: 'warning', key: 'payment_result_failed' },
};

/** An admin refunds part or all of a paid trip, with a reason. */
function RefundForm({ booking, refundable }: { booking: Booking; refundable: number }) {
  const { t } = useTranslation();
  const refund = useAdminRefund(booking.id);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    refund.mutate({ amount: Number(amount), reason }, { onSuccess: () => { setAmount(''); setReason(''); } });
  };
  return (
    <Stack component="form" spacing={1} onSubmit={submit} noValidate>
      <Stack direction="row" spacing={1}>
        <TextField size="small" label={t('refund_amount')} value={amount} inputMode="decimal" placeholder={String(refundable)} onChange={(event) => { setAmount(event.target.value); }} />
        <TextField size="small" label={t('refund_reason')} value={reason} onChange={(event) => { setReason(event.target.value); }} />
        <Button type="submit" variant="outlined" color="warning" disabled={refund.isPending || amount === '' || reason.trim() === ''}>{t('refund')}</Button>
      </Stack>
      {refund.isError && <Alert severity="error">{t(errorKey(refund.error))}</Alert>}
      {refund.isSuccess && <Alert severity="success">{t('refund_requested')}</Alert>}
    </Stack>
  );
}

/** The booking's payment: the provider's result on return, the receipt, the refunds; an admin's refund. */
export function PaymentPanel({ booking, me }: { booking: Booking; me: User }) {
  const { t } = useTranslation();
  const money = useMoney();
  const [search] = useSearchParams();
  const result = RESULTS[search.get('payment') ?? ''];
  const paid = PAID.has(booking.status);
  const payments = useBookingPayments(booking.id, paid || booking.status === 'CANCELLED');
  const refunds = payments.data?.refunds ?? [];
  return (
    <Stack spacing={1} sx={{ mt: 2 }}>
      {result && <Alert severity={result.severity}>{t(result.key)}</Alert>}
      {paid && (
        <Link href={`/api/bookings/${booking.id}/receipt`} target="_blank" rel="noopener" data-testid="receipt-link">
          {t('receipt')}
        </Link>
      )}
      {refunds.length > 0 && (
        <>
          <Typography variant="subtitle2">{t('refunds')}</Typography>
          <List dense aria-label={t('refunds')}>
            {refunds.map((refund) => (
              <ListItem key={refund.id} disableGutters>
                <ListItemText primary={`${money(refund.amount, { currency: refund.currency })} · ${t(`refund_status_${refund.status}`)}`} secondary={refund.reason ?? refund.provider} />
              </ListItem>
            ))}
          </List>
          {me.usertype === 'admin' && refunds.filter((refund) => refund.status === 'awaiting_dashboard').map((refund) => <DashboardRefund key={refund.id} bookingId={booking.id} refund={refund} />)}
        </>
      )}
      {me.usertype === 'admin' && paid && payments.data && payments.data.refundable > 0 && <RefundForm booking={booking} refundable={payments.data.refundable} />}
    </Stack>
  );
}
