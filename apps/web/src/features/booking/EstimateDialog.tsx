import type { Estimate, PromoCheck } from '@rideway/contract';
import type { ErrorKey } from '@rideway/domain';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { usePaymentProviders } from '../../api/catalogue';
import { useSettings } from '../../api/settings';
import { useMoney } from '../../hooks/use-money';
import { PromoField, usePromoApply } from './PromoField';
import { DELIVERY_FIELDS, PAYMENT_MODES, useBookingTerms, type BookingTerms, type PaymentMode } from './use-booking-terms';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography>{value}</Typography>
    </Stack>
  );
}

type Props = {
  estimate: Estimate;
  busy: boolean;
  onConfirm: (terms: BookingTerms) => void;
  onCancel: () => void;
  onInvalid: (key: ErrorKey) => void;
  /** Issue 17: checks a promo code with the server (Apply); without it the code is checked only when booking. */
  onApplyPromo?: (promo: string) => Promise<PromoCheck>;
};

/** Section 4's estimate dialog: the fare, how to pay, and in delivery mode who receives the parcel. */
export function EstimateDialog({ estimate, busy, onConfirm, onCancel, onInvalid, onApplyPromo }: Props) {
  const { t } = useTranslation();
  const money = useMoney();
  const { data: settings } = useSettings();
  const delivery = settings?.appcat === 'delivery';
  // Card is offered while the providers are unknown (the server refuses it if none is) and hidden when none is in force.
  const providers = usePaymentProviders(true);
  const cardOffered = providers.data === undefined || providers.data.length > 0;
  const { paymentMode, setPaymentMode, promo, setPromo, details, setDetail, terms } = useBookingTerms(delivery, cardOffered);
  const unit = settings?.convert_to_mile ? t('unit_miles') : t('unit_km');
  const applied = usePromoApply(onApplyPromo);
  const confirm = async () => {
    const checked = terms();
    if (!checked.ok) {
      onInvalid(checked.key);
      return;
    }
    // A code typed but not applied is applied first: a refused one stays at its field, nothing is booked.
    if (checked.value.promo && !(await applied.ensure(checked.value.promo))) return;
    onConfirm(checked.value);
  };
  return (
    <Dialog open onClose={onCancel} aria-labelledby="estimate-title" fullWidth maxWidth="xs">
      <DialogTitle id="estimate-title">{t('estimate_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={1}>
          <Figure label={t('distance')} value={`${estimate.distance.toFixed(1)} ${unit}`} />
          <Figure label={t('duration')} value={t('minutes', { count: Math.max(1, Math.round(estimate.duration / 60)) })} />
          <Figure label={t('convenience_fees')} value={money(estimate.convenience_fees)} />
          <Divider />
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
            <Typography variant="h6" component="p">
              {t('estimate_fare')}
            </Typography>
            <Typography variant="h5" component="p" data-testid="estimate-fare" sx={{ fontWeight: 700 }}>
              {money(estimate.estimateFare, true)}
            </Typography>
          </Stack>
          {estimate.approximate && <Typography variant="body2" color="text.secondary">{t('approximate_route')}</Typography>}
          <FormControl sx={{ pt: 1 }}>
            <FormLabel id="payment-mode-label">{t('payment_mode')}</FormLabel>
            <RadioGroup row aria-labelledby="payment-mode-label" value={paymentMode} onChange={(event) => { setPaymentMode(event.target.value as PaymentMode); }}>
              {PAYMENT_MODES.filter((mode) => mode !== 'card' || cardOffered).map((mode) => (
                <FormControlLabel key={mode} value={mode} control={<Radio />} label={t(`payment_${mode}`)} />
              ))}
            </RadioGroup>
          </FormControl>
          <PromoField promo={promo} onChange={(code) => { setPromo(code); applied.reset(); }} apply={applied} />
          {delivery &&
            DELIVERY_FIELDS.map((field) => (
              <TextField
                key={field}
                label={t(field)}
                value={details[field]}
                required={field === 'deliveryPerson' || field === 'deliveryPersonPhone'}
                multiline={field.endsWith('Instructions')}
                type={field === 'deliveryPersonPhone' ? 'tel' : 'text'}
                onChange={(event) => { setDetail(field, event.target.value); }}
                size="small"
              />
            ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('cancel')}</Button>
        <Button variant="contained" onClick={() => { void confirm(); }} disabled={busy || applied.pending}>
          {t('confirm_booking')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
