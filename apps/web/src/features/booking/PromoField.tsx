import type { PromoCheck } from '@rideway/contract';
import { Button, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../api/client';
import { useMoney } from '../../hooks/use-money';

const codeOf = (promo: string): string => promo.trim().toUpperCase();

/**
 * Issue 17, Apply: the server's answer for the code typed, or the key refusing it. `ensure`
 * applies a code not yet applied (Confirm calls it) and tells whether the booking may go on.
 */
export function usePromoApply(check: ((promo: string) => Promise<PromoCheck>) | undefined) {
  const [result, setResult] = useState<PromoCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const apply = async (promo: string): Promise<boolean> => {
    if (!check) return true;
    setPending(true);
    setError(null);
    try {
      setResult(await check(codeOf(promo)));
      return true;
    } catch (failure) {
      setResult(null);
      setError(errorKey(failure));
      return false;
    } finally {
      setPending(false);
    }
  };
  return {
    enabled: check !== undefined,
    result,
    error,
    pending,
    apply,
    ensure: (promo: string): Promise<boolean> => (result?.promo_details.promo_name === codeOf(promo) ? Promise.resolve(true) : apply(promo)),
    reset: () => {
      setResult(null);
      setError(null);
    },
  };
}

type Apply = ReturnType<typeof usePromoApply>;

function Line({ label, value, testId, strong = false }: { label: string; value: string; testId: string; strong?: boolean }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
      <Typography color={strong ? 'text.primary' : 'success.main'} sx={{ fontWeight: strong ? 700 : 400 }}>{label}</Typography>
      <Typography data-testid={testId} color={strong ? 'text.primary' : 'success.main'} sx={{ fontWeight: strong ? 700 : 400 }}>{value}</Typography>
    </Stack>
  );
}

/** The promo code with its Apply button; a refusal shows at the field, an accepted code its discount and the new total. */
export function PromoField({ promo, onChange, apply }: { promo: string; onChange: (promo: string) => void; apply: Apply }) {
  const { t } = useTranslation();
  const money = useMoney();
  const canApply = apply.enabled && promo.trim() !== '' && !apply.pending;
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          label={t('promo_code')}
          value={promo}
          onChange={(event) => { onChange(event.target.value); }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && canApply) {
              event.preventDefault();
              void apply.apply(promo);
            }
          }}
          size="small"
          fullWidth
          error={apply.error !== null}
          helperText={apply.error === null ? undefined : t(apply.error)}
          slotProps={{ htmlInput: { autoCapitalize: 'characters', autoComplete: 'off', spellCheck: false, maxLength: 50 } }}
        />
        {apply.enabled && (
          <Button variant="outlined" disabled={!canApply} onClick={() => { void apply.apply(promo); }} sx={{ flexShrink: 0, height: 40 }}>
            {t('apply_promo')}
          </Button>
        )}
      </Stack>
      {apply.result && (
        <Stack spacing={0.5} aria-live="polite">
          <Line label={t('promo_discount', { code: apply.result.promo_details.promo_name })} value={`−${money(apply.result.discount)}`} testId="promo-discount" />
          <Line label={t('total_to_pay')} value={money(apply.result.customer_paid, true)} testId="promo-total" strong />
        </Stack>
      )}
    </Stack>
  );
}
