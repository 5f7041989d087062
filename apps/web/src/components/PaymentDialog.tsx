import type { PaymentProvider } from '@rideway/contract';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItemButton, ListItemText } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../api/client';
import { usePaymentProviders } from '../api/catalogue';
import { requestPaymentForm, type PaymentForm } from '../api/bookings';

/** Section 4: the payment form goes to the chosen provider's link as a POST with hidden fields. */
function postPaymentForm(provider: PaymentProvider, form: PaymentForm): void {
  const element = document.createElement('form');
  element.method = 'POST';
  element.action = provider.link;
  for (const [name, value] of Object.entries(form.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    element.append(input);
  }
  document.body.append(element);
  element.submit();
}

/** Section 4's payment-provider chooser, for a PAYMENT_PENDING booking or a PENDING trip's pay now. */
export function PaymentDialog({ bookingId, onClose }: { bookingId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const providers = usePaymentProviders(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const choose = (provider: PaymentProvider) => {
    setPaying(true);
    requestPaymentForm(bookingId).then(
      (form) => { postPaymentForm(provider, form); },
      (error: unknown) => {
        setPaying(false);
        setFailure(t(errorKey(error)));
      },
    );
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="payment-title" fullWidth maxWidth="xs">
      <DialogTitle id="payment-title">{t('payment_title')}</DialogTitle>
      <DialogContent>
        {providers.isPending && <CircularProgress aria-label={t('loading')} />}
        {providers.isError && <Alert severity="error">{`${t('provider_fetch_error')} ${providers.error.message}`}</Alert>}
        {providers.data?.length === 0 && <Alert severity="warning">{t('no_provider_found')}</Alert>}
        {failure && <Alert severity="error">{failure}</Alert>}
        <List aria-label={t('pay_with')}>
          {providers.data?.map((provider) => (
            <ListItemButton key={provider.name} disabled={paying} onClick={() => { choose(provider); }}>
              <ListItemText primary={t('pay_with_provider', { provider: provider.name })} />
            </ListItemButton>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
