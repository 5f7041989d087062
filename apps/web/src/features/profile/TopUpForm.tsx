import { Alert, Button, MenuItem, Stack, TextField } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaymentProviders } from '../../api/catalogue';
import { errorKey } from '../../api/client';
import { postForm, startTopup } from '../../api/payments';

/** A rider adds money to the wallet by card: the top-up starts here and is paid at the chosen provider's checkout. */
export function TopUpForm() {
  const { t } = useTranslation();
  // The embedded test provider takes no top-ups (it has no checkout of its own for them).
  const providers = (usePaymentProviders(true).data ?? []).filter((provider) => provider.name !== 'test');
  const [amount, setAmount] = useState('');
  const [provider, setProvider] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (providers.length === 0) return null;
  const chosen = provider || providers[0]?.name || '';
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setBusy(true);
    startTopup(Number(amount), chosen).then(
      (answer) => { postForm(answer.redirect, answer.fields); },
      (error: unknown) => {
        setBusy(false);
        setFailure(t(errorKey(error)));
      },
    );
  };
  return (
    <Stack component="form" direction="row" spacing={1} onSubmit={submit} sx={{ mt: 1 }} noValidate>
      <TextField size="small" label={t('top_up_amount')} value={amount} inputMode="decimal" onChange={(event) => { setAmount(event.target.value); }} />
      {providers.length > 1 && (
        <TextField size="small" select label={t('pay_with')} value={chosen} onChange={(event) => { setProvider(event.target.value); }}>
          {providers.map((item) => <MenuItem key={item.name} value={item.name}>{item.name}</MenuItem>)}
        </TextField>
      )}
      <Button type="submit" variant="outlined" loading={busy} disabled={amount === ''}>{t('top_up')}</Button>
      {failure && <Alert severity="error">{failure}</Alert>}
    </Stack>
  );
}
