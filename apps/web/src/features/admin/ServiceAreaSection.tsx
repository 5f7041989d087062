import type { ServiceArea } from '@rideway/domain';
import { CircularProgress, Paper, Typography } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

// Leaflet and its drawing toolbar load with the section, not with the app.
const ServiceAreaMap = lazy(() => import('./ServiceAreaMap'));

/**
 * Issue 16, point 6: the settings form's service area section: what it does, how many areas are
 * drawn (none: everywhere), and the map to draw them on.
 */
export function ServiceAreaSection({ value, onChange }: { value: ServiceArea; onChange: (area: ServiceArea) => void }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" component="section" aria-label={t('service_area')} sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('service_area')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('service_area_help')}
      </Typography>
      <Typography variant="body2" role="status" sx={{ mb: 1, fontWeight: 500 }}>
        {value.length === 0 ? t('service_area_everywhere') : t('service_area_count', { count: value.length })}
      </Typography>
      <Suspense fallback={<CircularProgress aria-label={t('service_area_map')} />}>
        <ServiceAreaMap value={value} onChange={onChange} label={t('service_area_map')} />
      </Suspense>
    </Paper>
  );
}
