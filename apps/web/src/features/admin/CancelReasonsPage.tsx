import type { CancelReason } from '@rideway/contract';
import { CANCEL_REASONS_PAGE_SIZE } from '@rideway/domain';
import { TextField } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCollection } from '../../api/admin';
import { useCancelReasons } from '../../api/catalogue';
import { useFormErrors } from '../../hooks/use-form-errors';
import { CrudTable } from './CrudTable';
import { FormDialog } from './FormDialog';

type Row = CancelReason;
const FIELDS = ['label'] as const;

/** Section 2: the cancellation reasons riders choose from, 10 to a page; values follow the order. */
export function CancelReasonsPage() {
  const { t } = useTranslation();
  const reasons = useCancelReasons(true);
  const { add, edit, remove } = useCollection<Row, { label: string }>('/api/cancel-reasons', ['cancel-reasons'], 'reason');
  const [adding, setAdding] = useState(false);
  const [label, setLabel] = useState('');
  const errors = useFormErrors(FIELDS);
  const columns: GridColDef<Row>[] = [
    { field: 'value', headerName: '#', type: 'number', width: 80 },
    { field: 'label', headerName: t('cancel_reason'), flex: 1, minWidth: 200, editable: true },
  ];
  const submit = async () => {
    await add.mutateAsync({ label });
    setAdding(false);
    setLabel('');
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
        <FormDialog title={t('add')} busy={add.isPending} onSubmit={submit} errors={errors} onClose={() => { setAdding(false); errors.clear(); }}>
          <TextField autoFocus fullWidth required label={t('cancel_reason')} value={label} onChange={(event) => { setLabel(event.target.value); errors.clear('label'); }} sx={{ mt: 1 }} {...errors.field('label')} />
        </FormDialog>
      )}
    </>
  );
}
