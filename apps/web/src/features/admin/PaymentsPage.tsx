import type { GridColDef } from '@mui/x-data-grid';
import { Alert, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { usePaymentEvents, usePaymentProvidersForAdmin, type PaymentEventRow, type ProviderForAdmin } from '../../api/payments';
import { useMoney } from '../../hooks/use-money';
import { useDates } from '../../hooks/use-dates';
import { providerLabel } from '@rideway/contract';
import { CrudTable } from './CrudTable';

type ProviderRow = ProviderForAdmin & { id: string };
type EventRow = Omit<PaymentEventRow, 'id'> & { id: string };

/**
 * Issue 18's payments page: the providers configured (test or live) with the webhook URL to paste
 * into each, and the latest notifications. Issue 22: a provider configured but unable to take the
 * settings currency is not offered to riders; the admin is told which currencies it takes.
 */
export function PaymentsPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const providers = usePaymentProvidersForAdmin();
  const events = usePaymentEvents();
  const providerColumns: GridColDef<ProviderRow>[] = [
    { field: 'name', headerName: t('payment_providers'), width: 140, valueFormatter: (value: string) => providerLabel(value) },
    { field: 'testMode', headerName: t('test_mode'), width: 120, valueFormatter: (value: boolean) => (value ? t('test_mode') : t('live_mode')) },
    { field: 'currencies', headerName: t('provider_currencies'), width: 200, valueFormatter: (value: string[] | null) => (value ? value.join(', ') : '') },
    { field: 'webhookUrl', headerName: t('webhook_url'), minWidth: 280, flex: 1 },
  ];
  const eventColumns: GridColDef<EventRow>[] = [
    { field: 'receivedAt', headerName: t('date'), type: 'number', width: 170, valueFormatter: (value: number) => dates.dateTime(value) },
    { field: 'provider', headerName: t('payment_providers'), width: 120, valueFormatter: (value: string) => providerLabel(value) },
    { field: 'type', headerName: 'type', width: 170 },
    { field: 'reference', headerName: t('booking_id'), minWidth: 140, flex: 1 },
    { field: 'amount', headerName: t('amount'), type: 'number', width: 110, valueFormatter: (value: number | null, row: EventRow) => (value === null ? '' : money(value, { currency: row.currency ?? undefined })) },
    { field: 'outcome', headerName: t('event_outcome'), width: 140 },
  ];
  const notTaking = providers.data?.providers.filter((provider) => !provider.takesCurrency) ?? [];
  return (
    <Stack spacing={3}>
      {notTaking.map((provider) => (
        <Alert key={provider.name} severity="warning" data-testid={`provider-currency-${provider.name}`}>
          {t('provider_currency_not_taken', { provider: providerLabel(provider.name), currency: providers.data?.currency ?? '', currencies: (provider.currencies ?? []).join(', ') })}
        </Alert>
      ))}
      <CrudTable title={t('payment_providers')} rows={providers.data?.providers.map((row) => ({ ...row, id: row.name }))} columns={providerColumns} emptyText={t('no_provider_found')} exportName="payment-providers" />
      <CrudTable title={t('latest_payment_events')} rows={events.data?.map((row) => ({ ...row, id: String(row.id) }))} columns={eventColumns} emptyText={t('no_data_available')} exportName="payment-events" />
    </Stack>
  );
}
