import type { CarType } from '@rideway/contract';
import { Box } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCollection } from '../../api/admin';
import { useCarTypes } from '../../api/catalogue';
import { useMoney } from '../../hooks/use-money';
import { CarTypeDialog, type CarTypeBody } from './CarTypeDialog';
import { CrudTable } from './CrudTable';

/** Section 2's car type table; a car type is edited in its form, with a confirmation step (issue 17). */
export function CarTypesPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const carTypes = useCarTypes();
  const { add, edit, remove } = useCollection<CarType, CarTypeBody>('/api/cartypes', ['cartypes'], 'cartype');
  const [editing, setEditing] = useState<CarType | 'new' | null>(null);
  const fare = (field: 'base_fare' | 'rate_per_unit_distance' | 'rate_per_hour' | 'min_fare'): GridColDef<CarType> => ({ field, headerName: t(field), type: 'number', width: 130, valueFormatter: (value: number) => money(value) });
  const columns: GridColDef<CarType>[] = [
    { field: 'image', headerName: t('car_type_image'), width: 90, sortable: false, filterable: false, renderCell: ({ row }) => (row.image ? <Box component="img" src={row.image} alt="" sx={{ width: 56, height: 32, objectFit: 'contain', verticalAlign: 'middle' }} /> : null) },
    { field: 'name', headerName: t('car_type_name'), minWidth: 140, flex: 1 },
    fare('base_fare'),
    fare('rate_per_unit_distance'),
    fare('rate_per_hour'),
    fare('min_fare'),
    { field: 'convenience_fees', headerName: t('convenience_fees'), type: 'number', width: 130 },
    { field: 'convenience_fee_type', headerName: t('convenience_fee_type'), type: 'singleSelect', width: 130, valueOptions: [{ value: 'percentage', label: t('fee_percentage') }, { value: 'flat', label: t('fee_flat') }] },
    { field: 'extra_info', headerName: t('extra_info'), minWidth: 140, flex: 1 },
  ];
  // A refusal is the dialog's to show on its field (issue 17).
  const save = async (body: CarTypeBody) => {
    if (editing === 'new') await add.mutateAsync(body);
    else if (editing) await edit.mutateAsync({ id: editing.id, body });
    setEditing(null);
  };
  return (
    <>
      <CrudTable
        title={t('menu_car_types')}
        rows={carTypes.data}
        columns={columns}
        emptyText={t('no_cars')}
        exportName="car-types"
        lowValue={['extra_info', 'convenience_fee_type', 'rate_per_hour', 'image']}
        add={{ label: t('add_car_type'), onClick: () => { setEditing('new'); } }}
        onEdit={(row) => { setEditing(row); }}
        onDelete={(row) => remove.mutateAsync(row.id)}
      />
      {editing && <CarTypeDialog carType={editing === 'new' ? null : editing} busy={add.isPending || edit.isPending} onSave={save} onClose={() => { setEditing(null); }} />}
    </>
  );
}
