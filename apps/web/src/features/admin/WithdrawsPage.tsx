import type { Withdraw } from '@rideway/contract';
import DoneIcon from '@mui/icons-material/TaskAlt';
import type { GridColDef } from '@mui/x-data-grid';
import { GridActionsCellItem } from '@mui/x-data-grid';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../../components/AlertDialog';
import { api, errorKey } from '../../api/client';
import { useWithdraws, WITHDRAWS } from '../../api/wallet';
import { dateTimeText } from '../../utils/date-text';
import { useMoney } from '../../hooks/use-money';
import { CrudTable } from './CrudTable';

/** Section 2 /withdraws: drivers' withdraw requests; Process marks one paid and is disabled after. */
export function WithdrawsPage() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const queryClient = useQueryClient();
  const withdraws = useWithdraws();
  const [alert, setAlert] = useState<string | null>(null);
  const process = useMutation({
    mutationFn: (id: string) => api<{ withdraw: Withdraw }>(`/api/withdraws/${id}/complete`, { method: 'POST', body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WITHDRAWS }),
    onError: (error) => { setAlert(t(errorKey(error))); },
  });
  const date = (value: number | null) => dateTimeText(value, i18n.language);
  const columns: GridColDef<Withdraw>[] = [
    { field: 'date', headerName: t('date'), type: 'number', width: 170, valueFormatter: (value: number) => date(value) },
    { field: 'name', headerName: t('driver'), minWidth: 150, flex: 1 },
    { field: 'amount', headerName: t('amount'), type: 'number', width: 110, valueFormatter: (value: number) => money(value) },
    { field: 'bankName', headerName: t('bank_name'), width: 130 },
    { field: 'bankAccount', headerName: t('bank_account'), width: 140 },
    { field: 'processed', headerName: t('processed'), type: 'boolean', width: 100 },
    { field: 'procesDate', headerName: t('process_date'), width: 170, valueFormatter: (value: number | null) => date(value) },
    {
      field: 'process',
      type: 'actions',
      headerName: t('process'),
      getActions: ({ row }) => [<GridActionsCellItem key="process" icon={<DoneIcon />} label={t('process')} disabled={row.processed || process.isPending} onClick={() => { process.mutate(row.id); }} />],
    },
  ];
  return (
    <>
      <CrudTable title={t('menu_withdraws')} rows={withdraws.data} columns={columns} emptyText={t('no_withdraws_available')} exportName="withdraws" />
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </>
  );
}
