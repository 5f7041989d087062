import type { ReviewVehicle } from '@rideway/contract';
import type { DocumentStatus } from '@rideway/domain';
import { Box, Button, Card, CardActions, CardContent, Chip, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReviewVehicles, useVehicleDecision } from '../../api/vehicles';
import { CardListSkeleton } from '../../components/Skeletons';
import { useDates } from '../../hooks/use-dates';
import { STATUS_COLOURS, STATUS_LABELS } from '../../utils/document-labels';
import { ReviewDecisionDialog, type ReviewDecision, type ReviewTexts } from './ReviewDecisionDialog';
import { vehicleTitle } from './VehiclesSection';

type Deciding = { vehicle: ReviewVehicle; decision: ReviewDecision };

const VEHICLE_TEXTS: ReviewTexts = { approveTitle: 'vehicle_approve_title', rejectTitle: 'vehicle_reject_title', rejectHint: 'vehicle_reject_hint', approvedDone: 'vehicle_approved_done', rejectedDone: 'vehicle_rejected_done' };

/** Asks before a decision; a rejection needs the reason the driver reads. */
function VehicleDecisionDialog({ deciding, onClose }: { deciding: Deciding; onClose: () => void }) {
  const decide = useVehicleDecision();
  const { vehicle, decision } = deciding;
  return (
    <ReviewDecisionDialog
      decision={decision}
      subject={`${vehicleTitle(vehicle)} · ${vehicle.driverName}`}
      texts={VEHICLE_TEXTS}
      pending={decide.isPending}
      decide={(reason, callbacks) => { decide.mutate({ id: vehicle.id, decision, reason }, callbacks); }}
      onClose={onClose}
    />
  );
}

/**
 * Issue 20 point 3, on the review screen: drivers' vehicles with their photos under the same
 * status filter as the documents. A pending vehicle is approved or rejected; an approved one may
 * still be rejected (the active one: the driver goes offline).
 */
export function VehicleReviewSection({ status }: { status: DocumentStatus | undefined }) {
  const { t } = useTranslation();
  const dates = useDates();
  const { data, isPending } = useReviewVehicles(status);
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  return (
    <Box component="section" aria-labelledby="vehicle-review-title" sx={{ mt: 4 }}>
      <Typography id="vehicle-review-title" variant="h6" component="h2" gutterBottom>{t('vehicles_review_title')}</Typography>
      {isPending && <CardListSkeleton />}
      {data?.length === 0 && <Typography color="text.secondary">{t('vehicles_review_empty')}</Typography>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
        {data?.map((vehicle) => {
          const title = vehicleTitle(vehicle);
          return (
            <Card key={vehicle.id} variant="outlined" data-vehicle={vehicle.id} component="article" aria-label={`${title} · ${vehicle.driverName}`}>
              {vehicle.image ? (
                <Link href={vehicle.image} target="_blank" rel="noopener" sx={{ display: 'block' }}>
                  <Box component="img" src={vehicle.image} alt={t('vehicle_photo_alt', { vehicle: title })} sx={{ width: '100%', height: 180, objectFit: 'contain', bgcolor: 'action.hover' }} />
                </Link>
              ) : (
                <Box sx={{ height: 180, display: 'grid', placeItems: 'center', bgcolor: 'action.hover' }}>
                  <Typography variant="body2" color="text.secondary">{t('vehicle_no_photo')}</Typography>
                </Box>
              )}
              <CardContent>
                <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                  <Typography variant="subtitle1" component="h3" sx={{ overflowWrap: 'anywhere' }}>{title}</Typography>
                  <Stack direction="row" spacing={0.5}>
                    {vehicle.active && <Chip size="small" color="primary" variant="outlined" label={t('vehicle_active')} />}
                    <Chip size="small" color={STATUS_COLOURS[vehicle.status]} label={t(STATUS_LABELS[vehicle.status])} />
                  </Stack>
                </Stack>
                <Typography variant="body2">{`${t('vehicle_car_type')}: ${vehicle.carType}`}</Typography>
                <Typography variant="body2">{`${t('document_driver')}: ${vehicle.driverName}`}</Typography>
                {vehicle.driverEmail && <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>{vehicle.driverEmail}</Typography>}
                <Typography variant="body2" color="text.secondary">{t('document_sent_on', { date: dates.dateTime(vehicle.createdAt) })}</Typography>
                {vehicle.reason && <Typography variant="body2" color="error">{`${t('document_reason')}: ${vehicle.reason}`}</Typography>}
              </CardContent>
              {vehicle.status !== 'rejected' && (
                <CardActions>
                  {vehicle.status === 'pending' && <Button variant="contained" size="small" onClick={() => { setDeciding({ vehicle, decision: 'approve' }); }}>{t('document_approve')}</Button>}
                  <Button color="error" size="small" onClick={() => { setDeciding({ vehicle, decision: 'reject' }); }}>{t('document_reject')}</Button>
                </CardActions>
              )}
            </Card>
          );
        })}
      </Box>
      {deciding && <VehicleDecisionDialog deciding={deciding} onClose={() => { setDeciding(null); }} />}
    </Box>
  );
}
