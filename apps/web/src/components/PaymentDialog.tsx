import { providerLabel, type PaymentProvider } from '@rideway/contract';
import { Alert, Button, Checkbox, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, List, ListItemButton, ListItemText } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../api/client';
import { usePaymentProviders } from '../api/catalogue';
import { requestPaymentForm } from '../api/bookings';
import { postForm, SAVES_CARDS } from '../api/payments';

/** Section 4's payment-provider chooser, for a PAYMENT_PENDING booking or a PENDING trip's pay now. */
export function PaymentDialog({ bookingId, onClose }: { bookingId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const providers = usePaymentProviders(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [saveCard, setSaveCard] = useState(false);
  const choose = (provider: PaymentProvider) => {
    setPaying(true);
    requestPaymentForm(bookingId).then(
      // Section 4: the form goes to the chosen provider's link as a POST with hidden fields (and the rider's save-card choice).
      (form) => { postForm(provider.link, { ...form.fields, ...(saveCard && SAVES_CARDS.has(provider.name) ? { save_card: '1' } : {}) }); },
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
        {providers.data?.some((provider) => SAVES_CARDS.has(provider.name)) && (
          <FormControlLabel control={<Checkbox checked={saveCard} onChange={(event) => { setSaveCard(event.target.checked); }} />} label={t('save_card')} />
        )}
        <List aria-label={t('pay_with')}>
          {providers.data?.map((provider) => (
            <ListItemButton key={provider.name} disabled={paying} onClick={() => { choose(provider); }}>
              <ListItemText primary={t('pay_with_provider', { provider: providerLabel(provider.name) })} />
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
