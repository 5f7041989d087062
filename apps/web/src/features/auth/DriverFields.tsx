import { Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ImagePicker } from '../../components/ImagePicker';
import { scaledPhoto } from '../../utils/images';
import { useCarTypes } from '../../api/catalogue';
import { CarTypeSelect } from '../../components/CarTypeSelect';
import { LICENCE_PHOTO_MAX_SIDE_PX } from '../../config/ui-constants';

export type DriverSignUp = { carType: string; vehicleNumber: string; vehicleMake: string; vehicleModel: string; licenseImage: string };
export const NO_DRIVER: DriverSignUp = { carType: '', vehicleNumber: '', vehicleMake: '', vehicleModel: '', licenseImage: '' };

type Props = { value: DriverSignUp; onChange: (value: DriverSignUp) => void; onUnreadable: () => void };

/** Section 5 driver sign-up: the vehicle, and the licence image uploaded before the form is sent. */
export function DriverFields({ value, onChange, onUnreadable }: Props) {
  const { t } = useTranslation();
  const carTypes = useCarTypes();
  const set = (key: Exclude<keyof DriverSignUp, 'carType' | 'licenseImage'>) => (event: { target: { value: string } }) => { onChange({ ...value, [key]: event.target.value }); };
  return (
    <Stack spacing={2}>
      <CarTypeSelect carTypes={carTypes.data ?? []} value={value.carType} onChange={(carType) => { onChange({ ...value, carType }); }} />
      <TextField label={t('vehicle_number')} value={value.vehicleNumber} onChange={set('vehicleNumber')} required />
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
    </Stack>
  );
}
