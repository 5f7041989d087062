import type { Booking } from '@rideway/contract';
import { etaTargetOf, type LatLng } from '@rideway/domain';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { Alert } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useEta } from '../../api/eta';
import { useSettings } from '../../api/settings';
import { ETA_MOVE_REFRESH_MIN_MS } from '../../config/ui-constants';
import { wholeMinutes } from '../../utils/duration';

/**
 * Issue 16, for the rider: "Your driver is N min away (X km)" while the driver comes, "Arriving in
 * N min" once the trip started. Asked again every 30 s and when the driver's live position moves
 * (at most every ETA_MOVE_REFRESH_MIN_MS; the server reuses its answer while the driver moved little).
 */
export function DriverEta({ booking, driverAt }: { booking: Booking; driverAt: LatLng | null }) {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const target = etaTargetOf(booking.status);
  const eta = useEta(booking.id, target, target !== undefined && booking.driver !== null);
  const { refetch, dataUpdatedAt } = eta;
  useEffect(() => {
    if (driverAt && target && Date.now() - dataUpdatedAt >= ETA_MOVE_REFRESH_MIN_MS) void refetch();
  }, [driverAt, target, dataUpdatedAt, refetch]);
  if (!target || !eta.data || eta.data.target !== target) return null;
  const minutes = wholeMinutes(eta.data.duration);
  const text =
    target === 'pickup'
      ? t('driver_eta_pickup', { minutes, distance: eta.data.distance.toFixed(1), unit: t(settings?.convert_to_mile ? 'unit_miles' : 'unit_km') })
      : t('driver_eta_drop', { minutes });
  return (
    <Alert severity="info" icon={<ScheduleIcon />} data-testid="driver-eta" role="status">
      {text}
    </Alert>
  );
}
