import type { DriverEarningRow, EarningReportRow } from '@rideway/contract';
import type { GridColDef } from '@mui/x-data-grid';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { monthText } from '../../utils/date-text';
import { useMoney } from '../../hooks/use-money';
import { CrudTable } from './CrudTable';

type Monthly = { year: number; month: number };

function useReport<Row extends Monthly>(path: string, key: string, idOf: (row: Row) => string) {
  return useQuery({
    queryKey: ['reports', key],
    queryFn: async () => (await api<{ rows: Row[] }>(path)).rows.map((row) => ({ ...row, id: idOf(row) })),
  });
}

/** The month a report row covers, as "November 2026"; it sorts by year, then month. */
function usePeriodColumn<Row extends Monthly>(): GridColDef<Row & { id: string }> {
  const { t, i18n } = useTranslation();
  return {
    field: 'period',
    headerName: t('month'),
    width: 150,
    valueGetter: (_value: unknown, row: Row) => row.year * 100 + row.month,
    // The month's name in the reader's language (the row's monthsName is English).
    valueFormatter: (_value: number, row: Row) => monthText(row.year, row.month, i18n.language),
  };
}

/**
 * Section 2 /earningreports: PAID and COMPLETE bookings by month (section 9). Profit is the
 * convenience fees less the discounts the platform gave.
 */
export function EarningReportsPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const report = useReport<EarningReportRow>('/api/reports/earnings', 'earnings', (row) => `${row.year}-${row.month}-${row.currency}`);
  const amount = (field: keyof EarningReportRow, headerName: string): GridColDef<EarningReportRow & { id: string }> => ({ field, headerName, type: 'number', width: 120, valueFormatter: (value: number, row: EarningReportRow) => money(value, { currency: row.currency }) });
  const columns: GridColDef<EarningReportRow & { id: string }>[] = [
    usePeriodColumn<EarningReportRow>(),
    { field: 'bookings', headerName: t('bookings_count'), type: 'number', width: 100 },
    amount('tripCost', t('trip_cost')),
    amount('rideCost', t('ride_cost')),
    amount('convenienceFee', t('convenience_fees')),
    amount('discountAmount', t('discount_amount')),
    amount('customerPaid', t('customer_paid')),
    amount('driverShare', t('driver_share')),
    amount('myEarning', t('my_earning')),
    amount('profit', t('profit')),
  ];
  return <CrudTable title={t('menu_earning_reports')} rows={report.data} columns={columns} emptyText={t('no_data_available')} exportName="earning-reports" lowValue={['rideCost', 'myEarning', 'customerPaid']} />;
}

/** Section 2 /driverearning: each driver's share by month; a fleet admin sees only its drivers. */
export function DriverEarningsPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const report = useReport<DriverEarningRow>('/api/reports/driver-earnings', 'driver-earnings', (row) => `${row.year}-${row.month}-${row.driver}-${row.currency}`);
  const columns: GridColDef<DriverEarningRow & { id: string }>[] = [
    usePeriodColumn<DriverEarningRow>(),
    { field: 'driverName', headerName: t('driver'), minWidth: 160, flex: 1 },
    { field: 'driverVehicleNo', headerName: t('vehicle_number'), width: 140 },
    { field: 'bookings', headerName: t('bookings_count'), type: 'number', width: 100 },
    { field: 'driverShare', headerName: t('driver_share'), type: 'number', width: 140, valueFormatter: (value: number, row: DriverEarningRow) => money(value, { currency: row.currency }) },
  ];
  return <CrudTable title={t('menu_driver_earning')} rows={report.data} columns={columns} emptyText={t('no_data_available')} exportName="driver-earnings" />;
}
