import type { Promo } from '@rideway/contract';
import { MenuItem, Stack, TextField } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateText } from '../../utils/date-text';
import { useCollection } from '../../api/admin';
import { api } from '../../api/client';
import { useFormErrors } from '../../hooks/use-form-errors';
import { useMoney } from '../../hooks/use-money';
import { CrudTable } from './CrudTable';
import { FormDialog } from './FormDialog';
import { PROMO_DEFAULT_USAGE_LIMIT, PROMO_DEFAULT_VALIDITY_DAYS } from '../../config/ui-constants';

const PROMOS = ['promos'] as const;
const DAY = 86_400_000;

type PromoBody = Omit<Promo, 'id' | 'user_avail' | 'createdAt'>;
type Draft = Record<Exclude<keyof PromoBody, 'promo_discount_type'>, string> & { promo_discount_type: Promo['promo_discount_type'] };

/** A date field's value (yyyy-mm-dd) for an instant, in UTC as the server keeps validity. */
const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);
/** A promo is valid through the whole of its last day. */
const endOfDay = (day: string): number => new Date(`${day}T23:59:59.999Z`).getTime();

const NUMBER_FIELDS = ['promo_discount_value', 'max_promo_discount_value', 'min_order', 'promo_usage_limit'] as const;

/** The add form's fields; a refusal lands on the one the server names (issue 17). */
const PROMO_FIELDS = ['promo_name', 'promo_description', 'promo_discount_type', ...NUMBER_FIELDS, 'promo_validity'] as const;

function AddPromoDialog({ busy, onAdd, onClose }: { busy: boolean; onAdd: (promo: PromoBody) => Promise<unknown>; onClose: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => ({
    promo_name: '',
    promo_description: '',
    promo_discount_type: 'flat',
    promo_discount_value: '',
    max_promo_discount_value: '0',
    min_order: '0',
    promo_validity: dayOf(Date.now() + PROMO_DEFAULT_VALIDITY_DAYS * DAY),
    promo_usage_limit: String(PROMO_DEFAULT_USAGE_LIMIT),
  }));
  const errors = useFormErrors(PROMO_FIELDS);
  const set = (key: keyof Draft) => (event: { target: { value: string } }) => {
    setDraft({ ...draft, [key]: event.target.value });
    errors.clear(key);
  };
  const submit = () =>
    onAdd({
      promo_name: draft.promo_name,
      promo_description: draft.promo_description,
      promo_discount_type: draft.promo_discount_type,
      promo_discount_value: Number(draft.promo_discount_value),
      max_promo_discount_value: Number(draft.max_promo_discount_value),
      min_order: Number(draft.min_order),
      promo_validity: endOfDay(draft.promo_validity),
      promo_usage_limit: Number(draft.promo_usage_limit),
    });
  return (
    <FormDialog title={t('add_promo')} busy={busy} onSubmit={submit} errors={errors} onClose={onClose}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField autoFocus required label={t('promo_name')} value={draft.promo_name} onChange={set('promo_name')} {...errors.field('promo_name')} slotProps={{ htmlInput: { maxLength: 50, style: { textTransform: 'uppercase' } } }} />
        <TextField multiline label={t('promo_description')} value={draft.promo_description} onChange={set('promo_description')} {...errors.field('promo_description')} />
        <TextField select label={t('promo_discount_type')} value={draft.promo_discount_type} onChange={set('promo_discount_type')} {...errors.field('promo_discount_type')}>
          <MenuItem value="flat">{t('fee_flat')}</MenuItem>
          <MenuItem value="percentage">{t('fee_percentage')}</MenuItem>
        </TextField>
        {NUMBER_FIELDS.map((key) => (
          <TextField key={key} required type="number" label={t(key)} value={draft[key]} onChange={set(key)} {...errors.field(key)} slotProps={{ htmlInput: { min: 0, step: key === 'promo_usage_limit' ? 1 : 0.01 } }} />
        ))}
        <TextField required type="date" label={t('promo_validity')} value={draft.promo_validity} onChange={set('promo_validity')} {...errors.field('promo_validity')} slotProps={{ inputLabel: { shrink: true } }} />
      </Stack>
    </FormDialog>
  );
}

/** Section 2 /promos: the promo codes riders enter in the estimate dialog; user_avail counts their uses. */
export function PromosPage() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const promos = useQuery({ queryKey: PROMOS, queryFn: async () => (await api<{ promos: Promo[] }>('/api/promos')).promos });
  const { add, edit, remove } = useCollection<Promo, PromoBody>('/api/promos', PROMOS, 'promo');
  const [adding, setAdding] = useState(false);
  const columns: GridColDef<Promo>[] = [
    { field: 'promo_name', headerName: t('promo_name'), editable: true, minWidth: 130, flex: 1 },
    { field: 'promo_description', headerName: t('promo_description'), editable: true, minWidth: 160, flex: 1 },
    { field: 'promo_discount_type', headerName: t('promo_discount_type'), type: 'singleSelect', editable: true, width: 120, valueOptions: [{ value: 'flat', label: t('fee_flat') }, { value: 'percentage', label: t('fee_percentage') }] },
    { field: 'promo_discount_value', headerName: t('promo_discount_value'), type: 'number', editable: true, width: 110 },
    { field: 'max_promo_discount_value', headerName: t('max_promo_discount_value'), type: 'number', editable: true, width: 130, valueFormatter: (value: number) => money(value) },
    { field: 'min_order', headerName: t('min_order'), type: 'number', editable: true, width: 110, valueFormatter: (value: number) => money(value) },
    { field: 'promo_validity', headerName: t('promo_validity'), type: 'number', width: 130, valueFormatter: (value: number) => dateText(value, i18n.language) },
    { field: 'promo_usage_limit', headerName: t('promo_usage_limit'), type: 'number', editable: true, width: 110 },
    { field: 'user_avail', headerName: t('user_avail'), type: 'number', width: 100 },
  ];
  return (
    <>
      <CrudTable
        title={t('menu_promos')}
        rows={promos.data}
        columns={columns}
        emptyText={t('no_promos_available')}
        exportName="promos"
        lowValue={['promo_description', 'max_promo_discount_value', 'min_order']}
        add={{ label: t('add_promo'), onClick: () => { setAdding(true); } }}
        onUpdate={(row) => {
          const { promo_name, promo_description, promo_discount_type, promo_discount_value, max_promo_discount_value, min_order, promo_usage_limit } = row;
          return edit.mutateAsync({ id: row.id, body: { promo_name, promo_description, promo_discount_type, promo_discount_value, max_promo_discount_value, min_order, promo_usage_limit } });
        }}
        onDelete={(row) => remove.mutateAsync(row.id)}
      />
      {adding && (
        <AddPromoDialog
          busy={add.isPending}
          onClose={() => { setAdding(false); }}
          onAdd={async (promo) => {
            await add.mutateAsync(promo);
            setAdding(false);
          }}
        />
      )}
    </>
  );
}
