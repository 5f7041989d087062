import type { LatLng, Place } from '@rideway/domain';
import { Box, Stack, Typography } from '@mui/material';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { NO_HEADING, trackHeading } from '../../components/map/heading';
import { carIcon, fitAround, PLACE_LABEL, placePin, type PlaceKind } from '../../components/map/icons';
import { MapFrame } from '../../components/map/MapFrame';
import { useLeafletMap } from '../../components/map/use-leaflet-map';
import { usePlannedRoute } from '../../components/map/use-planned-route';

export type TripMapProps = { pickup: Place; drop: Place; driver: LatLng | null; route: LatLng[]; labels: { pickup: string; drop: string; driver: string } };

const point = (place: LatLng): L.LatLngTuple => [place.lat, place.lng];

/** The planned route (dashed) under the path driven (solid), in the legend's colours. */
const PLANNED = { color: '#5c6bc0', weight: 4, opacity: 0.85, dashArray: '8 8' };
const DRIVEN = { color: '#0d47a1', weight: 5, opacity: 0.95 };

type Layers = { planned: L.Polyline; driven: L.Polyline; car: L.Marker; places: Record<PlaceKind, L.Marker> };

/** What the lines mean; the driven path's entry once there is one. */
function Legend({ driven }: { driven: boolean }) {
  const { t } = useTranslation();
  const swatch = (line: { color: string; dashArray?: string }) => (
    <Box component="svg" width={28} height={8} aria-hidden="true" sx={{ flexShrink: 0 }}>
      <line x1="1" y1="4" x2="27" y2="4" stroke={line.color} strokeWidth="4" strokeDasharray={line.dashArray ?? undefined} />
    </Box>
  );
  return (
    <Stack direction="row" useFlexGap spacing={2} sx={{ mt: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
        {swatch(PLANNED)}
        <Typography variant="caption">{t('planned_route')}</Typography>
      </Stack>
      {driven && (
        <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
          {swatch(DRIVEN)}
          <Typography variant="caption">{t('driven_path')}</Typography>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * The trip on a Leaflet map: pickup and drop with their names, the planned route between them
 * (section 7's getroute), the path driven so far, and the driver's car turned to its heading.
 */
export default function TripMap({ pickup, drop, driver, route, labels }: TripMapProps) {
  const leaflet = useLeafletMap({ scrollWheelZoom: false }, (map) => {
    map.fitBounds(L.latLngBounds([point(pickup), point(drop)]), fitAround(false));
  });
  const { map, tilesUnavailable } = leaflet;
  const layers = useRef<Layers | null>(null);
  const heading = useRef(NO_HEADING);
  const { points: planned } = usePlannedRoute(pickup, drop);

  useEffect(() => {
    if (!map) return undefined;
    const place = (kind: PlaceKind) =>
      L.marker([0, 0], { icon: placePin(kind), interactive: false, keyboard: false })
        .bindTooltip('', PLACE_LABEL)
        .addTo(map);
    const built: Layers = {
      planned: L.polyline([], PLANNED).addTo(map),
      driven: L.polyline([], DRIVEN).addTo(map),
      car: L.marker([0, 0], { icon: carIcon(null), keyboard: false, zIndexOffset: 1000 }).bindTooltip(''),
      places: { pickup: place('pickup'), drop: place('drop') },
    };
    layers.current = built;
    return () => {
      layers.current = null;
      for (const layer of [built.planned, built.driven, built.car, built.places.pickup, built.places.drop]) layer.remove();
    };
  }, [map]);

  // The places, named on the map so they read without tiles; the view follows them when they change.
  const { lat: pickupLat, lng: pickupLng, add: pickupAdd } = pickup;
  const { lat: dropLat, lng: dropLng, add: dropAdd } = drop;
  useEffect(() => {
    const built = layers.current;
    if (!map || !built) return;
    const name = (marker: L.Marker, at: L.LatLngTuple, label: string, address: string) => {
      marker.setLatLng(at).setTooltipContent(address || label);
      const element = marker.getElement();
      element?.setAttribute('role', 'img');
      element?.setAttribute('aria-label', address ? `${label}: ${address}` : label);
    };
    name(built.places.pickup, [pickupLat, pickupLng], labels.pickup, pickupAdd);
    name(built.places.drop, [dropLat, dropLng], labels.drop, dropAdd);
  }, [map, pickupLat, pickupLng, pickupAdd, dropLat, dropLng, dropAdd, labels.pickup, labels.drop]);

  // The view holds the places and the planned route (not the driver: the user may pan to follow it).
  useEffect(() => {
    const built = layers.current;
    if (!map || !built) return;
    built.planned.setLatLngs(planned.map(point));
    const bounds = L.latLngBounds([[pickupLat, pickupLng], [dropLat, dropLng]]);
    for (const place of planned) bounds.extend(point(place));
    map.fitBounds(bounds, fitAround(tilesUnavailable));
  }, [map, planned, pickupLat, pickupLng, dropLat, dropLng, tilesUnavailable]);

  useEffect(() => {
    const built = layers.current;
    if (!map || !built) return;
    built.driven.setLatLngs(route.map(point));
    built.car.setTooltipContent(labels.driver);
    if (!driver) {
      built.car.remove();
      return;
    }
    heading.current = trackHeading(heading.current, driver, route);
    built.car.setLatLng(point(driver)).setIcon(carIcon(heading.current.heading));
    if (!map.hasLayer(built.car)) built.car.addTo(map);
  }, [map, driver, route, labels.driver]);

  const car = driver ? `${String(driver.lat)},${String(driver.lng)}` : '';
  return (
    <Box>
      <MapFrame label={labels.driver} leaflet={leaflet} data={{ 'data-driver': car, 'data-planned-points': planned.length }} height={{ xs: 260, md: 360 }} />
      <Legend driven={route.length > 1} />
    </Box>
  );
}
