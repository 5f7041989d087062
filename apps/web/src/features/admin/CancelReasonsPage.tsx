import type { CancelReason } from '@rideway/contract';
import { CANCEL_REASONS_PAGE_SIZE } from '@rideway/domain';
import { TextField } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../../components/AlertDialog';
import { useCollection } from '../../api/admin';
import { useCancelReasons } from '../../api/catalogue';
import { errorKey } from '../../api/client';
import { CrudTable } from './CrudTable';
import { FormDialog } from './FormDialog';

type Row = CancelReason;

/** Section 2: the cancellation reasons riders choose from, 10 to a page; values follow the order. */
export function CancelReasonsPage() {
  const { t } = useTranslation();
  const reasons = useCancelReasons(true);
  const { add, edit, remove } = useCollection<Row, { label: string }>('/api/cancel-reasons', ['cancel-reasons'], 'reason');
  const [adding, setAdding] = useState(false);
  const [label, setLabel] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const columns: GridColDef<Row>[] = [
    { field: 'value', headerName: '#', type: 'number', width: 80 },
    { field: 'label', headerName: t('cancel_reason'), flex: 1, minWidth: 200, editable: true },
  ];
  const submit = () => {
    add.mutate({ label }, {
      onSuccess: () => {
        setAdding(false);
        setLabel('');
      },
      onError: (error) => { setAlert(t(errorKey(error))); },
    });
  };
  return (
    <>
      <CrudTable
        title={t('menu_cancellation_reasons')}
        rows={reasons.data}
        columns={columns}
        pageSize={CANCEL_REASONS_PAGE_SIZE}
        emptyText={t('no_cancel_reasons')}
        exportName="cancel-reasons"
        add={{ label: t('add'), onClick: () => { setAdding(true); } }}
        onUpdate={(row) => edit.mutateAsync({ id: row.id, body: { label: row.label } })}
        onDelete={(row) => remove.mutateAsync(row.id)}
      />
      {adding && (
        <FormDialog title={t('add')} busy={add.isPending} onSubmit={submit} onClose={() => { setAdding(false); }}>
          <TextField autoFocus fullWidth required label={t('cancel_reason')} value={label} onChange={(event) => { setLabel(event.target.value); }} sx={{ mt: 1 }} />
        </FormDialog>
      )}
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </>
  );
}
