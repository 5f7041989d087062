import type { DriverDocument, Vehicle } from '@rideway/contract';
import { MAX_VEHICLES_PER_DRIVER, VEHICLE_DOCUMENT_KINDS } from '@rideway/domain';
import { Alert, Box, Button, Chip, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCarTypes } from '../../api/catalogue';
import { errorKey } from '../../api/client';
import { useActivateVehicle, useAddVehicle, useDeleteVehicle, useMyVehicles } from '../../api/vehicles';
import { CarTypeSelect } from '../../components/CarTypeSelect';
import { ImagePicker } from '../../components/ImagePicker';
import { useNotice } from '../../components/NoticeProvider';
import { CardListSkeleton } from '../../components/Skeletons';
import { LICENCE_PHOTO_MAX_SIDE_PX } from '../../config/ui-constants';
import { STATUS_COLOURS, STATUS_LABELS } from '../../utils/document-labels';
import { scaledPhoto } from '../../utils/images';
import { DocumentCard } from './DocumentCard';

const PHOTO_SX = { width: 96, height: 64, objectFit: 'cover', borderRadius: 1, border: 1, borderColor: 'divider', flex: '0 0 auto' } as const;

/** How a vehicle is named on its card and in its photo's text. */
export const vehicleTitle = (vehicle: Pick<Vehicle, 'carType' | 'vehicleMake' | 'vehicleModel' | 'vehicleNumber'>): string => {
  const name = [vehicle.vehicleMake, vehicle.vehicleModel].filter(Boolean).join(' ') || vehicle.carType;
  return vehicle.vehicleNumber ? `${name} · ${vehicle.vehicleNumber}` : name;
};

/**
 * One vehicle: photo, car type, status and the reviewer's reason; made active or deleted; and its
 * own registration and insurance, sent from here (issue 20 point 3: only the active vehicle's
 * count for going online).
 */
function VehicleCard({ vehicle, count, papers, today }: { vehicle: Vehicle; count: number; papers: readonly DriverDocument[]; today: string }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const activate = useActivateVehicle();
  const remove = useDeleteVehicle();
  const [error, setError] = useState<string | null>(null);
  const title = vehicleTitle(vehicle);
  const titleId = `vehicle-${vehicle.id}`;
  const fail = (failure: unknown) => { setError(t(errorKey(failure))); };
  return (
    <Paper variant="outlined" component="article" aria-labelledby={titleId} sx={{ p: 2 }} data-vehicle={vehicle.id}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
        {vehicle.image ? (
          <Box component="img" src={vehicle.image} alt={t('vehicle_photo_alt', { vehicle: title })} sx={PHOTO_SX} />
        ) : (
          <Box sx={{ ...PHOTO_SX, display: 'grid', placeItems: 'center', bgcolor: 'action.hover' }}>
            <Typography variant="caption" color="text.secondary">{t('vehicle_no_photo')}</Typography>
          </Box>
        )}
        <Box sx={{ minWidth: 0, flexGrow: 1 }}>
          <Typography id={titleId} variant="subtitle1" component="h3" sx={{ overflowWrap: 'anywhere' }}>{title}</Typography>
          <Typography variant="body2" data-testid="vehicle-car-type">{`${t('vehicle_car_type')}: ${vehicle.carType}`}</Typography>
          <Stack direction="row" spacing={1} sx={{ mt: 0.5, flexWrap: 'wrap', gap: 0.5 }}>
            <Chip size="small" color={STATUS_COLOURS[vehicle.status]} label={t(STATUS_LABELS[vehicle.status])} />
            {vehicle.active && <Chip size="small" color="primary" variant="outlined" label={t('vehicle_active')} />}
          </Stack>
          {vehicle.status === 'rejected' && vehicle.reason && <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>{`${t('document_reason')}: ${vehicle.reason}`}</Typography>}
        </Box>
      </Stack>
      {!vehicle.active && (
        <Stack direction="row" spacing={1} sx={{ mt: 1.5, justifyContent: 'flex-end' }}>
          {vehicle.status === 'approved' && (
            <Button variant="contained" size="small" loading={activate.isPending} onClick={() => { setError(null); activate.mutate(vehicle.id, { onSuccess: () => { notify(t('vehicle_made_active'), 'success'); }, onError: fail }); }}>
              {t('vehicle_make_active')}
            </Button>
          )}
          {count > 1 && (
            <Button color="error" size="small" loading={remove.isPending} onClick={() => { setError(null); remove.mutate(vehicle.id, { onSuccess: () => { notify(t('vehicle_deleted'), 'success'); }, onError: fail }); }}>
              {t('vehicle_delete')}
            </Button>
          )}
        </Stack>
      )}
      {error && <Alert severity="error" sx={{ mt: 1 }}>{error}</Alert>}
      {vehicle.status !== 'rejected' && (
        <Box component="section" aria-labelledby={`${titleId}-papers`} sx={{ mt: 2 }}>
          <Typography id={`${titleId}-papers`} variant="subtitle2" component="h4" sx={{ mb: 0.5 }}>{t('vehicle_documents_title')}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{t(vehicle.active ? 'vehicle_documents_active_hint' : 'vehicle_documents_other_hint')}</Typography>
          <Stack spacing={1.5}>
            {VEHICLE_DOCUMENT_KINDS.map((kind) => (
              <DocumentCard key={kind} kind={kind} current={papers.find((doc) => doc.kind === kind)} today={today} vehicle={{ id: vehicle.id, title }} />
            ))}
          </Stack>
        </Box>
      )}
    </Paper>
  );
}

const EMPTY = { carType: '', vehicleMake: '', vehicleModel: '', vehicleNumber: '' };

/** A new vehicle: car type, make, model, number and a photo, sent for review. */
function AddVehicleForm() {
  const { t } = useTranslation();
  const notify = useNotice();
  const carTypes = useCarTypes();
  const add = useAddVehicle();
  const [fields, setFields] = useState(EMPTY);
  const [image, setImage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const set = (key: Exclude<keyof typeof EMPTY, 'carType'>) => (event: { target: { value: string } }) => { setFields({ ...fields, [key]: event.target.value }); };
  const send = () => {
    if (!image || Object.values(fields).some((value) => value.trim() === '')) {
      setError(t('vehicle_needs_all'));
      return;
    }
    setError(null);
    add.mutate({ ...fields, image }, {
      onSuccess: () => {
        setFields(EMPTY);
        setImage(null);
        notify(t('vehicle_added'), 'success');
      },
      onError: (failure) => { setError(t(errorKey(failure))); },
    });
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="vehicle-add-title" sx={{ p: 2 }}>
      <Typography id="vehicle-add-title" variant="subtitle1" component="h3" gutterBottom>{t('vehicle_add_title')}</Typography>
      <Stack spacing={2}>
        <CarTypeSelect carTypes={carTypes.data ?? []} value={fields.carType} onChange={(carType) => { setFields({ ...fields, carType }); }} />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField fullWidth size="small" label={t('vehicle_make')} value={fields.vehicleMake} onChange={set('vehicleMake')} slotProps={{ htmlInput: { maxLength: 100 } }} />
          <TextField fullWidth size="small" label={t('vehicle_model')} value={fields.vehicleModel} onChange={set('vehicleModel')} slotProps={{ htmlInput: { maxLength: 100 } }} />
          <TextField fullWidth size="small" label={t('vehicle_number')} value={fields.vehicleNumber} onChange={set('vehicleNumber')} slotProps={{ htmlInput: { maxLength: 30 } }} />
        </Stack>
        <ImagePicker
          label={t('vehicle_choose_photo')}
          image={image}
          imageAlt={t('vehicle_photo_alt', { vehicle: vehicleTitle(fields) })}
          read={(file) => scaledPhoto(file, LICENCE_PHOTO_MAX_SIDE_PX)}
          onImage={setImage}
          onUnreadable={() => { setError(t('proper_document_image')); }}
          previewSx={PHOTO_SX}
        />
        <Box>
          <Button variant="contained" onClick={send} loading={add.isPending}>{t('vehicle_add')}</Button>
        </Box>
        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
    </Paper>
  );
}

/**
 * Issue 20 point 3: the driver's vehicles on its documents page: each with its photo, review
 * status and reason, the active one marked, and its registration and insurance (`documents`: the
 * newest of each kind per vehicle); an approved one is made active, and new ones added (up to the
 * domain's limit).
 */
export function VehiclesSection({ documents, today }: { documents: readonly DriverDocument[]; today: string }) {
  const { t } = useTranslation();
  const { data, isPending } = useMyVehicles();
  const vehicles = data ?? [];
  return (
    <Box component="section" aria-labelledby="vehicles-title" sx={{ mt: 4 }}>
      <Typography id="vehicles-title" variant="h6" component="h2" gutterBottom>{t('vehicles_title')}</Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>{t('vehicles_intro')}</Typography>
      <Stack spacing={2}>
        {isPending ? <CardListSkeleton /> : vehicles.map((vehicle) => <VehicleCard key={vehicle.id} vehicle={vehicle} count={vehicles.length} papers={documents.filter((doc) => doc.vehicleId === vehicle.id)} today={today} />)}
        {!isPending && vehicles.length < MAX_VEHICLES_PER_DRIVER && <AddVehicleForm />}
      </Stack>
    </Box>
  );
}
