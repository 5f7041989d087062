import type { CarType } from '@rideway/contract';
import { Box } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../../components/AlertDialog';
import { useCollection } from '../../api/admin';
import { useCarTypes } from '../../api/catalogue';
import { errorKey } from '../../api/client';
import { useMoney } from '../../hooks/use-money';
import { CarTypeDialog, type CarTypeBody } from './CarTypeDialog';
import { CrudTable } from './CrudTable';

/** Section 2's car type table: fares edited in their cells, the rest in the car type's form. */
export function CarTypesPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const carTypes = useCarTypes();
  const { add, edit, remove } = useCollection<CarType, CarTypeBody>('/api/cartypes', ['cartypes'], 'cartype');
  const [editing, setEditing] = useState<CarType | 'new' | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const fare = (field: 'base_fare' | 'rate_per_unit_distance' | 'rate_per_hour' | 'min_fare'): GridColDef<CarType> => ({ field, headerName: t(field), type: 'number', editable: true, width: 130, valueFormatter: (value: number) => money(value) });
  const columns: GridColDef<CarType>[] = [
    { field: 'image', headerName: t('car_type_image'), width: 90, sortable: false, filterable: false, renderCell: ({ row }) => (row.image ? <Box component="img" src={row.image} alt="" sx={{ width: 56, height: 32, objectFit: 'contain', verticalAlign: 'middle' }} /> : null) },
    { field: 'name', headerName: t('car_type_name'), editable: true, minWidth: 140, flex: 1 },
    fare('base_fare'),
    fare('rate_per_unit_distance'),
    fare('rate_per_hour'),
    fare('min_fare'),
    { field: 'convenience_fees', headerName: t('convenience_fees'), type: 'number', editable: true, width: 130 },
    { field: 'convenience_fee_type', headerName: t('convenience_fee_type'), type: 'singleSelect', editable: true, width: 130, valueOptions: [{ value: 'percentage', label: t('fee_percentage') }, { value: 'flat', label: t('fee_flat') }] },
    { field: 'extra_info', headerName: t('extra_info'), editable: true, minWidth: 140, flex: 1 },
  ];
  const save = (body: CarTypeBody) => {
    const done = { onSuccess: () => { setEditing(null); }, onError: (error: unknown) => { setAlert(t(errorKey(error))); } };
    if (editing === 'new') add.mutate(body, done);
    else if (editing) edit.mutate({ id: editing.id, body }, done);
  };
  return (
    <>
      <CrudTable
        title={t('menu_car_types')}
        rows={carTypes.data}
        columns={columns}
        emptyText={t('no_cars')}
        exportName="car-types"
        add={{ label: t('add_car_type'), onClick: () => { setEditing('new'); } }}
        onUpdate={(row) => {
          const { id, name, base_fare, rate_per_unit_distance, rate_per_hour, min_fare, convenience_fees, convenience_fee_type, extra_info } = row;
          return edit.mutateAsync({ id, body: { name, base_fare, rate_per_unit_distance, rate_per_hour, min_fare, convenience_fees, convenience_fee_type, extra_info } });
        }}
        onEdit={(row) => { setEditing(row); }}
        onDelete={(row) => remove.mutateAsync(row.id)}
      />
      {editing && <CarTypeDialog carType={editing === 'new' ? null : editing} busy={add.isPending || edit.isPending} onSave={save} onClose={() => { setEditing(null); }} />}
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </>
  );
}
