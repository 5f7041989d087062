import type { CarType } from '@rideway/contract';
import { Grid, MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../api/settings';
import { useFormErrors } from '../../hooks/use-form-errors';
import { ChangeList, type Change } from './ChangeList';
import { FormDialog } from './FormDialog';
import { PairListEditor } from './PairListEditor';
import { ImagePicker } from '../../components/ImagePicker';
import { readImage } from '../../utils/images';

/** What an admin sends for a car type (the server's carTypeCreateSchema). */
export type CarTypeBody = Omit<CarType, 'id' | 'createdAt'>;

const FARES = ['base_fare', 'rate_per_unit_distance', 'rate_per_hour', 'min_fare', 'convenience_fees'] as const;

const EMPTY: CarTypeBody = { name: '', image: '', base_fare: 0, rate_per_unit_distance: 0, rate_per_hour: 0, min_fare: 0, convenience_fees: 0, convenience_fee_type: 'percentage', extra_info: '', parcelTypes: [], options: [], cancelSlab: [] };

const bodyOf = (carType: CarType): CarTypeBody => {
  const { id: _id, createdAt: _createdAt, ...body } = carType;
  return body;
};

const SCALARS = ['name', ...FARES, 'convenience_fee_type', 'extra_info'] as const;
const LISTS = ['parcelTypes', 'options', 'cancelSlab'] as const;
/** The fields a refusal can land on (the server names them as the body does); one about the image or a list is the form's. */
const ERROR_FIELDS = SCALARS;
const LIST_LABELS = { parcelTypes: 'parcel_type', options: 'parcel_option', cancelSlab: 'cancel_slab' } as const;
const SCALAR_LABELS: Record<(typeof SCALARS)[number], string> = { name: 'car_type_name', base_fare: 'base_fare', rate_per_unit_distance: 'rate_per_unit_distance', rate_per_hour: 'rate_per_hour', min_fare: 'min_fare', convenience_fees: 'convenience_fees', convenience_fee_type: 'convenience_fee_type', extra_info: 'extra_info' };
const listText = (items: readonly Record<string, string | number>[]): string => items.map((item) => Object.values(item).join(' ')).join('; ');

/** What an edit changes, for its confirmation step (issue 17). */
function changesOf(before: CarTypeBody, after: CarTypeBody, t: (key: string) => string): Change[] {
  const text = (key: (typeof SCALARS)[number], body: CarTypeBody) => (key === 'convenience_fee_type' ? t(`fee_${body[key]}`) : String(body[key]));
  return [
    ...SCALARS.filter((key) => before[key] !== after[key]).map((key) => ({ label: t(SCALAR_LABELS[key]), before: text(key, before), after: text(key, after) })),
    ...(before.image === after.image ? [] : [{ label: t('car_type_image'), before: '', after: t('updated') }]),
    ...LISTS.filter((key) => listText(before[key]) !== listText(after[key])).map((key) => ({ label: t(LIST_LABELS[key]), before: listText(before[key]), after: listText(after[key]) })),
  ];
}

/** Adding or editing a car type: fares, image, and (delivery) parcel types and options, and the cancelSlab. */
export function CarTypeDialog({ carType, busy, onSave, onClose }: { carType: CarType | null; busy: boolean; onSave: (body: CarTypeBody) => Promise<unknown>; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const [body, setBody] = useState<CarTypeBody>(carType ? bodyOf(carType) : EMPTY);
  const errors = useFormErrors(ERROR_FIELDS);
  const change = <K extends keyof CarTypeBody>(key: K, value: CarTypeBody[K]) => {
    setBody((current) => ({ ...current, [key]: value }));
    errors.clear(key);
  };
  return (
    <FormDialog
      title={carType ? carType.name : t('add_car_type')}
      busy={busy}
      onSubmit={() => onSave(body)}
      errors={errors}
      onClose={onClose}
      maxWidth="sm"
      // An edit is confirmed before it is sent (issue 17); an add is not.
      confirmation={carType ? <ChangeList changes={changesOf(bodyOf(carType), body, t)} /> : undefined}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField label={t('car_type_name')} required value={body.name} onChange={(event) => { change('name', event.target.value); }} {...errors.field('name')} />
        <ImagePicker
          label={t('car_type_image')}
          image={body.image || null}
          imageAlt=""
          read={readImage}
          onImage={(image) => { change('image', image); }}
          accept="image/png,image/jpeg,image/webp"
          previewSx={{ width: 72, height: 40, objectFit: 'contain' }}
        />
        <Grid container spacing={2}>
          {FARES.map((fare) => (
            <Grid key={fare} size={{ xs: 12, sm: 6 }}>
              <TextField fullWidth label={t(fare)} type="number" required value={body[fare]} onChange={(event) => { change(fare, Number(event.target.value)); }} slotProps={{ htmlInput: { min: 0, step: 0.01 } }} {...errors.field(fare)} />
            </Grid>
          ))}
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField select fullWidth label={t('convenience_fee_type')} value={body.convenience_fee_type} onChange={(event) => { change('convenience_fee_type', event.target.value as CarTypeBody['convenience_fee_type']); }} {...errors.field('convenience_fee_type')}>
              <MenuItem value="percentage">{t('fee_percentage')}</MenuItem>
              <MenuItem value="flat">{t('fee_flat')}</MenuItem>
            </TextField>
          </Grid>
        </Grid>
        <TextField label={t('extra_info')} value={body.extra_info} onChange={(event) => { change('extra_info', event.target.value); }} {...errors.field('extra_info')} />
        {settings?.appcat === 'delivery' && (
          <>
            <PairListEditor title={t('parcel_type')} items={body.parcelTypes} blank={{ description: '', amount: 0 }} fields={[{ key: 'description', label: t('description'), type: 'text' }, { key: 'amount', label: t('amount'), type: 'number' }]} onChange={(items) => { change('parcelTypes', items); }} />
            <PairListEditor title={t('parcel_option')} items={body.options} blank={{ description: '', amount: 0 }} fields={[{ key: 'description', label: t('description'), type: 'text' }, { key: 'amount', label: t('amount'), type: 'number' }]} onChange={(items) => { change('options', items); }} />
          </>
        )}
        <PairListEditor title={t('cancel_slab')} items={body.cancelSlab} blank={{ minsDelayed: 0, amount: 0 }} fields={[{ key: 'minsDelayed', label: t('mins_delayed'), type: 'number' }, { key: 'amount', label: t('amount'), type: 'number' }]} onChange={(items) => { change('cancelSlab', items); }} />
      </Stack>
    </FormDialog>
  );
}
