import type { RefundRecord } from '@rideway/contract';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../api/client';
import { useConfirmDashboardRefund } from '../../api/payments';
import { FormError } from '../../components/FormError';
import { useNotice } from '../../components/NoticeProvider';
import { useMoney } from '../../hooks/use-money';

/**
 * Issue 22: a refund the provider's API cannot make (PayFast). The admin is told to make it in the
 * provider's dashboard, then records it here with the provider's reference; the amount is the
 * refund's own, so the dialog asks for nothing else. Once recorded the refund is no longer awaiting
 * and this goes away, so the success is a notice.
 */
export function DashboardRefund({ bookingId, refund }: { bookingId: string; refund: RefundRecord }) {
  const { t } = useTranslation();
  const money = useMoney();
  const confirm = useConfirmDashboardRefund(bookingId);
  const notify = useNotice();
  const [open, setOpen] = useState(false);
  const [reference, setReference] = useState('');
  const close = () => {
    setOpen(false);
    confirm.reset();
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    confirm.mutate({ refundId: refund.id, providerRefundId: reference.trim() }, { onSuccess: () => { notify(t('refund_dashboard_confirmed')); } });
  };
  const instruction = t('refund_dashboard_instruction', { provider: refund.provider, amount: money(refund.amount, { currency: refund.currency }), transaction: refund.transactionId ?? '' });
  return (
    <>
      <Alert
        severity="warning"
        data-testid={`dashboard-refund-${refund.id}`}
        action={<Button color="inherit" size="small" onClick={() => { setOpen(true); }}>{t('refund_dashboard_confirm')}</Button>}
      >
        {instruction}
      </Alert>
      {open && (
        <Dialog open onClose={close} fullWidth maxWidth="xs" slotProps={{ paper: { component: 'form', onSubmit: submit } }}>
          <DialogTitle>{t('refund_dashboard_confirm')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Alert severity="info">{instruction}</Alert>
              <TextField label={t('refund_dashboard_reference')} value={reference} autoFocus required onChange={(event) => { setReference(event.target.value); }} slotProps={{ htmlInput: { maxLength: 200 } }} />
              <FormError message={confirm.isError ? t(errorKey(confirm.error)) : null} />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{t('cancel')}</Button>
            <Button type="submit" variant="contained" loading={confirm.isPending} disabled={reference.trim() === ''}>{t('refund_dashboard_confirm')}</Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
