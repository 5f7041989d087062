import { insideServiceArea, type LatLng, type ServiceArea } from '@rideway/domain';
import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../api/settings';

/**
 * Issue 16, point 6: whether the chosen pickup lies outside the service area the settings carry
 * (no pickup yet, or no area drawn: not outside). The server refuses such a booking the same way.
 */
export const outsideServiceArea = (pickup: LatLng | null, settings: { serviceArea?: ServiceArea } | undefined): boolean =>
  pickup !== null && !insideServiceArea(pickup, settings?.serviceArea ?? []);

/** At the pickup field, once the pickup is chosen: says it lies outside the service area, before Book. */
export function ServiceAreaNotice({ pickup }: { pickup: LatLng | null }) {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  if (!outsideServiceArea(pickup, settings)) return null;
  return (
    <Alert severity="warning" role="alert" data-testid="outside-service-area">
      {t('outside_service_area')}
    </Alert>
  );
}
