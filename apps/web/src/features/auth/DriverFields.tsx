import { FormHelperText, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ImagePicker } from '../../components/ImagePicker';
import { scaledPhoto } from '../../utils/images';
import { useCarTypes } from '../../api/catalogue';
import { CarTypeSelect } from '../../components/CarTypeSelect';
import { LICENCE_PHOTO_MAX_SIDE_PX } from '../../config/ui-constants';
import type { FieldErrorProps } from '../../hooks/use-form-errors';

export type DriverSignUp = { carType: string; vehicleNumber: string; vehicleMake: string; vehicleModel: string; licenseImage: string };
export const NO_DRIVER: DriverSignUp = { carType: '', vehicleNumber: '', vehicleMake: '', vehicleModel: '', licenseImage: '' };

/** The driver's fields an error can land on (issue 17). */
export const DRIVER_FIELDS = ['carType', 'vehicleNumber', 'licenseImage'] as const;
type DriverField = (typeof DRIVER_FIELDS)[number];

type Props = { value: DriverSignUp; onChange: (value: DriverSignUp) => void; onUnreadable: () => void; errorOf: (field: DriverField) => FieldErrorProps };

/** Section 5 driver sign-up: the vehicle, and the licence image uploaded before the form is sent. */
export function DriverFields({ value, onChange, onUnreadable, errorOf }: Props) {
  const { t } = useTranslation();
  const carTypes = useCarTypes();
  const set = (key: Exclude<keyof DriverSignUp, 'carType' | 'licenseImage'>) => (event: { target: { value: string } }) => { onChange({ ...value, [key]: event.target.value }); };
  return (
    <Stack spacing={2}>
      <div>
        <CarTypeSelect carTypes={carTypes.data ?? []} value={value.carType} onChange={(carType) => { onChange({ ...value, carType }); }} />
        <FieldMessage {...errorOf('carType')} />
      </div>
      <TextField label={t('vehicle_number')} value={value.vehicleNumber} onChange={set('vehicleNumber')} required {...errorOf('vehicleNumber')} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth label={t('vehicle_make')} value={value.vehicleMake} onChange={set('vehicleMake')} />
        <TextField fullWidth label={t('vehicle_model')} value={value.vehicleModel} onChange={set('vehicleModel')} />
      </Stack>
      <ImagePicker
        label={t('upload_licence')}
        inputLabel={t('licence_image')}
        image={value.licenseImage || null}
        imageAlt={t('licence_image')}
        emptyText={t('licence_needed')}
        read={(file) => scaledPhoto(file, LICENCE_PHOTO_MAX_SIDE_PX)}
        onImage={(licenseImage) => { onChange({ ...value, licenseImage }); }}
        onUnreadable={onUnreadable}
        previewSx={{ width: 96, height: 64, objectFit: 'cover', borderRadius: 1, border: 1, borderColor: 'divider' }}
      />
      <FieldMessage {...errorOf('licenseImage')} />
    </Stack>
  );
}

/** An error under a field that is not a TextField (the car type menu, the licence picker). */
function FieldMessage({ error, helperText }: FieldErrorProps) {
  return error ? <FormHelperText error role="alert">{helperText}</FormHelperText> : null;
}
