import 'leaflet/dist/leaflet.css';
import type { LatLng } from '@rideway/domain';
import { Box } from '@mui/material';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMapTiles } from '../../utils/map-tiles';


export type TripMapProps = { pickup: LatLng; drop: LatLng; driver: LatLng | null; route: LatLng[]; labels: { pickup: string; drop: string; driver: string } };

const point = (place: LatLng): L.LatLngTuple => [place.lat, place.lng];

function showLive(layers: { map: L.Map; driver: L.CircleMarker; path: L.Polyline }, driver: LatLng | null, route: LatLng[]): void {
  layers.path.setLatLngs(route.map(point));
  if (!driver) return;
  layers.driver.setLatLng(point(driver));
  if (!layers.map.hasLayer(layers.driver)) layers.driver.addTo(layers.map);
}

/** The trip on a Leaflet map: pickup, drop, the path driven so far and the driver's newest position. */
export default function TripMap({ pickup, drop, driver, route, labels }: TripMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const layers = useRef<{ map: L.Map; driver: L.CircleMarker; path: L.Polyline } | null>(null);
  // The newest driver and path, for a map rebuilt after they arrived (kept by an effect, not in render).
  const live = useRef({ driver, route });
  useEffect(() => {
    live.current = { driver, route };
  });

  // The map is built once per trip; a booking update brings new objects with the same places.
  const tiles = useMapTiles();
  const tileUrl = tiles?.url;
  const tileAttribution = tiles?.attribution;
  const { lat: pickupLat, lng: pickupLng } = pickup;
  const { lat: dropLat, lng: dropLng } = drop;
  useEffect(() => {
    if (!element.current) return undefined;
    const pickup = { lat: pickupLat, lng: pickupLng };
    const drop = { lat: dropLat, lng: dropLng };
    const map = L.map(element.current, { scrollWheelZoom: false });
    if (tileUrl) L.tileLayer(tileUrl, { maxZoom: 19, attribution: tileAttribution }).addTo(map);
    L.circleMarker(point(pickup), { radius: 9, color: '#1b5e20', fillOpacity: 0.9 }).bindTooltip(labels.pickup).addTo(map);
    L.circleMarker(point(drop), { radius: 9, color: '#c62828', fillOpacity: 0.9 }).bindTooltip(labels.drop).addTo(map);
    const path = L.polyline([], { color: '#1565c0', weight: 5 }).addTo(map);
    const driverMarker = L.circleMarker(point(pickup), { radius: 11, color: '#0d47a1', fillColor: '#42a5f5', fillOpacity: 1 }).bindTooltip(labels.driver);
    map.fitBounds(L.latLngBounds([point(pickup), point(drop)]), { padding: [32, 32] });
    layers.current = { map, driver: driverMarker, path };
    showLive(layers.current, live.current.driver, live.current.route);
    return () => {
      layers.current = null;
      map.remove();
    };
  }, [pickupLat, pickupLng, dropLat, dropLng, labels.pickup, labels.drop, labels.driver, tileUrl, tileAttribution]);

  useEffect(() => {
    if (layers.current) showLive(layers.current, driver, route);
  }, [driver, route]);

  return <Box ref={element} role="region" aria-label={labels.driver} data-driver={driver ? `${driver.lat},${driver.lng}` : ''} sx={{ height: { xs: 260, md: 360 }, borderRadius: 1, overflow: 'hidden', zIndex: 0 }} />;
}
