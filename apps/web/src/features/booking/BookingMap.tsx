import MyLocationIcon from '@mui/icons-material/MyLocation';
import { Alert, Box, Button, CircularProgress, LinearProgress, Stack, Typography } from '@mui/material';
import type { LatLng, Place } from '@rideway/domain';
import L from 'leaflet';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../api/client';
import { placeAt } from '../../api/places';
import { useSettings } from '../../api/settings';
import { fitAround, PLACE_LABEL, placePin, type PlaceKind } from '../../components/map/icons';
import { MapFrame } from '../../components/map/MapFrame';
import { routeFigures } from '../../components/map/route-figures';
import { useLeafletMap } from '../../components/map/use-leaflet-map';
import { usePlannedRoute } from '../../components/map/use-planned-route';
import { BROWSER_POSITION_MAX_AGE_MS, BROWSER_POSITION_TIMEOUT_MS } from '../../config/ui-constants';
import { BOOKING_MAP_HEIGHT } from './BookingFormPlaceholder';

type Props = {
  pickup: Place | null;
  drop: Place | null;
  onPickup: (place: Place) => void;
  onDrop: (place: Place) => void;
  onError: (error: unknown) => void;
};

/** Before any place is chosen the map shows the world; a chosen place is shown at street level. */
const WORLD: { centre: L.LatLngTuple; zoom: number } = { centre: [20, 0], zoom: 2 };
const PLACE_ZOOM = 14;

const tuple = ({ lat, lng }: LatLng): L.LatLngTuple => [lat, lng];

/** The view for the chosen places: both in sight, or the one at street level, or the world. */
function showPlaces(map: L.Map, pickup: LatLng | null, drop: LatLng | null, route: readonly LatLng[], tilesUnavailable = false): void {
  const shown = [pickup, drop, ...route].filter((place): place is LatLng => place !== null);
  if (shown.length > 1) map.fitBounds(L.latLngBounds(shown.map(tuple)), fitAround(tilesUnavailable));
  // A map given its first view here has no zoom yet (getZoom() is undefined, and Math.max of it
  // NaN, which makes the tiles throw "an infinite number of tiles").
  else if (shown[0]) map.setView(tuple(shown[0]), Number.isFinite(map.getZoom()) ? Math.max(map.getZoom(), PLACE_ZOOM) : PLACE_ZOOM);
  else map.setView(WORLD.centre, WORLD.zoom);
}

type Problem = 'my_location_denied' | 'my_location_unavailable';

/**
 * The booking form's map (signed-in users: section 7's calls need a session): the pickup and
 * drop pins, set by a tap (the pickup first, then the drop), by dragging a pin or by "use my
 * location", each point named by reverse geocoding; and the route between them with its
 * distance and duration before the rider books.
 */
export default function BookingMap({ pickup, drop, onPickup, onDrop, onError }: Props) {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const leaflet = useLeafletMap({ scrollWheelZoom: false }, (map) => { showPlaces(map, pickup, drop, []); });
  const { map, tilesUnavailable } = leaflet;
  const { route, points, error: routeError } = usePlannedRoute(pickup, drop);
  const [naming, setNaming] = useState(0);
  const [locating, setLocating] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const pins = useRef<Record<PlaceKind, L.Marker> | null>(null);
  const lineRef = useRef<L.Polyline | null>(null);

  // Leaflet's handlers are attached once; they read the newest places and callbacks from here.
  const latest = useRef({ pickup, drop, onPickup, onDrop, onError });
  useEffect(() => {
    latest.current = { pickup, drop, onPickup, onDrop, onError };
  });

  /** Names a point (reverse geocoding) and makes it the pickup or the drop; a pin that cannot be named goes back. */
  const choose = useCallback(async (kind: PlaceKind, point: LatLng) => {
    setNaming((count) => count + 1);
    try {
      const place = await placeAt(point);
      if (kind === 'pickup') latest.current.onPickup(place);
      else latest.current.onDrop(place);
    } catch (error) {
      const before = latest.current[kind];
      if (before) pins.current?.[kind].setLatLng(tuple(before));
      latest.current.onError(error);
    } finally {
      setNaming((count) => count - 1);
    }
  }, []);

  useEffect(() => {
    if (!map) return undefined;
    const pin = (kind: PlaceKind) => {
      const marker = L.marker(WORLD.centre, { icon: placePin(kind), draggable: true, autoPan: true });
      marker.on('dragend', () => { void choose(kind, marker.getLatLng()); });
      return marker;
    };
    const built = { pickup: pin('pickup'), drop: pin('drop') };
    pins.current = built;
    const line = L.polyline([], { color: '#1565c0', weight: 5, opacity: 0.9 }).addTo(map);
    const tap = (event: L.LeafletMouseEvent) => { void choose(latest.current.pickup ? 'drop' : 'pickup', event.latlng); };
    map.on('click', tap);
    lineRef.current = line;
    return () => {
      map.off('click', tap);
      built.pickup.remove();
      built.drop.remove();
      line.remove();
      pins.current = null;
      lineRef.current = null;
    };
  }, [map, choose]);

  // The pins follow the chosen places, and the view keeps them (and the route) in sight.
  const pickupTitle = t('pickup_location');
  const dropTitle = t('drop_location');
  useEffect(() => {
    const built = pins.current;
    if (!map || !built) return;
    for (const [kind, place] of [['pickup', pickup], ['drop', drop]] as const) {
      const marker = built[kind];
      if (!place) {
        marker.remove();
        continue;
      }
      marker.setLatLng(tuple(place));
      if (!map.hasLayer(marker)) marker.addTo(map);
      // A pin is a button (keyboard focus, dragging): its name says which place it is.
      marker.getElement()?.setAttribute('title', kind === 'pickup' ? pickupTitle : dropTitle);
      marker.unbindTooltip().bindTooltip(place.add, PLACE_LABEL);
    }
  }, [map, pickup, drop, pickupTitle, dropTitle]);

  // The view keeps the places and the route in sight, below the note when the tiles are missing.
  useEffect(() => {
    const line = lineRef.current;
    if (!map || !line) return;
    line.setLatLngs(points.map(tuple));
    showPlaces(map, pickup, drop, points, tilesUnavailable);
  }, [map, pickup, drop, points, tilesUnavailable]);

  // With no place chosen, a browser that already allows location opens the map where the user is (never asking).
  useEffect(() => {
    if (!map || latest.current.pickup || latest.current.drop || !('permissions' in navigator) || !('geolocation' in navigator)) return;
    let current = true;
    navigator.permissions.query({ name: 'geolocation' }).then((status) => {
      if (status.state !== 'granted' || !current) return;
      navigator.geolocation.getCurrentPosition((position) => {
        if (current && !latest.current.pickup && !latest.current.drop) map.setView([position.coords.latitude, position.coords.longitude], PLACE_ZOOM);
      }, () => undefined, { timeout: BROWSER_POSITION_TIMEOUT_MS, maximumAge: BROWSER_POSITION_MAX_AGE_MS });
    }, () => undefined);
    return () => { current = false; };
  }, [map]);

  const locate = () => {
    setProblem(null);
    if (!('geolocation' in navigator)) {
      setProblem('my_location_unavailable');
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        void choose('pickup', { lat: position.coords.latitude, lng: position.coords.longitude });
      },
      (failure) => {
        setLocating(false);
        setProblem(failure.code === failure.PERMISSION_DENIED ? 'my_location_denied' : 'my_location_unavailable');
      },
      { timeout: BROWSER_POSITION_TIMEOUT_MS, maximumAge: BROWSER_POSITION_MAX_AGE_MS, enableHighAccuracy: true },
    );
  };

  const figures = route ? routeFigures(route.distance, route.duration, settings?.convert_to_mile === true) : null;
  const unit = settings?.convert_to_mile ? t('unit_miles') : t('unit_km');
  return (
    <Stack spacing={1}>
      <MapFrame label={t('booking_map')} leaflet={leaflet} data={{ 'data-route-points': points.length }} height={BOOKING_MAP_HEIGHT} />
      {naming > 0 && <LinearProgress aria-label={t('loading')} />}
      <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Button variant="outlined" size="small" onClick={locate} disabled={locating} startIcon={locating ? <CircularProgress size={16} color="inherit" /> : <MyLocationIcon />}>
          {t('use_my_location')}
        </Button>
        <Box aria-live="polite" data-testid="route-summary">
          {figures && (
            <Typography variant="body2">
              {t('distance')}: <strong>{figures.distance} {unit}</strong> · {t('duration')}: <strong>{t('minutes', { count: figures.minutes })}</strong>
            </Typography>
          )}
          {routeError && <Typography variant="body2" color="error">{t(errorKey(routeError))}</Typography>}
        </Box>
      </Stack>
      {problem && <Alert severity="warning" onClose={() => { setProblem(null); }}>{t(problem)}</Alert>}
      <Typography variant="caption" color="text.secondary">
        {route?.approximate ? `${t('booking_map_hint')} ${t('approximate_route')}` : t('booking_map_hint')}
      </Typography>
    </Stack>
  );
}
