import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { LeafletMap } from './use-leaflet-map';

/** A height, or heights by breakpoint. */
type ResponsiveHeight = number | Partial<Record<'xs' | 'sm' | 'md' | 'lg' | 'xl', number>>;

type Props = {
  /** The region's name for screen readers and tests. */
  label: string;
  leaflet: LeafletMap;
  /** The map's height (the frame takes its width from the page). */
  height: ResponsiveHeight;
  /** data-* attributes on the region, for what the page reads off it. */
  data?: Record<`data-${string}`, string | number>;
};

/**
 * A labelled map region: the Leaflet map, and over it a short note when the tiles are
 * unavailable (the map then shows a plain background with the places and routes still on it).
 */
export function MapFrame({ label, leaflet: { attach, tilesUnavailable }, height, data }: Props) {
  const { t } = useTranslation();
  return (
    <Box role="region" aria-label={label} className="rideway-map-frame" data-tiles={tilesUnavailable ? 'unavailable' : 'ok'} {...data} sx={{ position: 'relative' }}>
      <Box sx={{ height, borderRadius: 1, overflow: 'hidden', position: 'relative', zIndex: 0 }}>
        {/* Leaflet owns this element's classes: React must never set them again (a theme's class changes with the direction). */}
        <div ref={attach} className="rideway-map" style={{ height: '100%' }} />
      </Box>
      {tilesUnavailable && (
        <Box
          role="status"
          sx={{
            position: 'absolute',
            top: 8,
            // Clear of the zoom buttons on the left, the same on the right so a right-to-left page keeps them clear too.
            left: 48,
            right: 48,
            zIndex: 1,
            mx: 'auto',
            width: 'fit-content',
            px: 1.25,
            py: 0.5,
            borderRadius: 1,
            bgcolor: 'rgba(255, 255, 255, 0.94)',
            color: 'text.primary',
            boxShadow: 1,
            typography: 'caption',
            lineHeight: 1.4,
            textAlign: 'center',
            pointerEvents: 'none',
          }}
        >
          {t('map_tiles_unavailable')}
        </Box>
      )}
    </Box>
  );
}
