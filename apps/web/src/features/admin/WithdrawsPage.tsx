import type { Withdraw } from '@rideway/contract';
import { withdrawState, type WithdrawDecision, type WithdrawState } from '@rideway/domain';
import DoneIcon from '@mui/icons-material/TaskAlt';
import RejectIcon from '@mui/icons-material/DoNotDisturbAlt';
import { Button, Chip, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { GridActionsCellItem } from '@mui/x-data-grid';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/NoticeProvider';
import { api, errorKey } from '../../api/client';
import { useWithdraws, WITHDRAWS } from '../../api/wallet';
import { useDates } from '../../hooks/use-dates';
import { useMoney } from '../../hooks/use-money';
import { actionsWidth } from './fit-columns';
import { CrudTable } from './CrudTable';

const STATE_LABELS: Record<WithdrawState, string> = { pending: 'withdraw_waiting', processed: 'processed', rejected: 'withdraw_rejected' };
const STATE_COLOURS = { pending: 'warning', processed: 'success', rejected: 'default' } as const;
const PATHS: Record<WithdrawDecision, string> = { process: 'complete', reject: 'reject' };

type Deciding = { withdraw: Withdraw; decision: WithdrawDecision };

/** Asks before a withdraw request is paid out or rejected (issue 17): both move money, once. */
function DecisionDialog({ deciding, busy, onConfirm, onClose }: { deciding: Deciding; busy: boolean; onConfirm: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const titleId = useId();
  const { withdraw, decision } = deciding;
  const bank = [withdraw.bankName, withdraw.bankAccount].filter(Boolean).join(' ') || '—';
  const values = { amount: money(withdraw.amount, { currency: withdraw.currency }), name: withdraw.name, bank };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t(decision === 'process' ? 'withdraw_process_title' : 'withdraw_reject_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t(decision === 'process' ? 'withdraw_process_confirm' : 'withdraw_reject_confirm', values)}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" color={decision === 'process' ? 'primary' : 'error'} loading={busy} onClick={onConfirm}>
          {t(decision)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Section 2 /withdraws: drivers' withdraw requests. An admin processes one (paid out) or rejects
 * it (the amount goes back to the driver's wallet), each after a confirmation; a decided request
 * has neither action.
 */
export function WithdrawsPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const queryClient = useQueryClient();
  const withdraws = useWithdraws();
  const notify = useNotice();
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const decide = useMutation({
    mutationFn: ({ withdraw, decision }: Deciding) => api<{ withdraw: Withdraw }>(`/api/withdraws/${withdraw.id}/${PATHS[decision]}`, { method: 'POST', body: {} }),
    onSettled: () => {
      setDeciding(null);
      return queryClient.invalidateQueries({ queryKey: WITHDRAWS });
    },
    // The decision is an action on a row, not a form: its refusal is an error notice (issue 17).
    onError: (error) => { notify(t(errorKey(error)), 'error'); },
  });
  const date = (value: number | null) => dates.dateTime(value);
  const columns: GridColDef<Withdraw>[] = [
    { field: 'date', headerName: t('date'), type: 'number', align: 'left', headerAlign: 'left', width: 180, valueFormatter: (value: number) => date(value) },
    { field: 'name', headerName: t('driver'), minWidth: 150, flex: 1 },
    { field: 'amount', headerName: t('amount'), type: 'number', width: 110, valueFormatter: (value: number, row: Withdraw) => money(value, { currency: row.currency }) },
    { field: 'bankName', headerName: t('bank_name'), width: 130 },
    { field: 'bankAccount', headerName: t('bank_account'), width: 140 },
    {
      field: 'state',
      headerName: t('withdraw_status'),
      width: 120,
      valueGetter: (_value: unknown, row: Withdraw) => withdrawState(row),
      valueFormatter: (value: WithdrawState) => t(STATE_LABELS[value]),
      renderCell: ({ value }: { value?: WithdrawState }) => (value ? <Chip size="small" color={STATE_COLOURS[value]} label={t(STATE_LABELS[value])} data-state={value} /> : null),
    },
    { field: 'procesDate', headerName: t('process_date'), width: 180, valueFormatter: (value: number | null) => date(value) },
    {
      field: 'decide',
      type: 'actions',
      headerName: t('actions'),
      width: actionsWidth(2),
      getActions: ({ row }) => {
        const decided = withdrawState(row) !== 'pending';
        return (['process', 'reject'] as const).map((decision) => (
          <GridActionsCellItem key={decision} icon={decision === 'process' ? <DoneIcon /> : <RejectIcon />} label={t(decision)} disabled={decided || decide.isPending} onClick={() => { setDeciding({ withdraw: row, decision }); }} />
        ));
      },
    },
  ];
  return (
    <>
      <CrudTable title={t('menu_withdraws')} rows={withdraws.data} columns={columns} emptyText={t('no_withdraws_available')} exportName="withdraws" lowValue={['procesDate', 'bankName', 'date']} />
      {deciding && <DecisionDialog deciding={deciding} busy={decide.isPending} onConfirm={() => { decide.mutate(deciding); }} onClose={() => { setDeciding(null); }} />}
    </>
  );
}
