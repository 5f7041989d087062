import 'leaflet/dist/leaflet.css';
import { DASHBOARD_MAP_ZOOM, DRIVER_MARKER_SIZE_PX, type LatLng } from '@rideway/domain';
import { Box } from '@mui/material';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import type { LiveDriver } from '../../api/dashboard';
import { useMapTiles } from '../../utils/map-tiles';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Section 2's driver marker (35 by 25), with the driver's name and vehicle number beside it. */
function markerIcon(driver: LiveDriver): L.DivIcon {
  const { width, height } = DRIVER_MARKER_SIZE_PX;
  const label = `${driver.name}${driver.vehicleNumber ? ` · ${driver.vehicleNumber}` : ''}`;
  return L.divIcon({
    className: 'rideway-driver-marker',
    iconSize: [width, height],
    iconAnchor: [Math.floor(width / 2), Math.floor(height / 2)],
    html: `<img src="/cars/${driver.busy ? 'xl' : 'economy'}.svg" width="${String(width)}" height="${String(height)}" alt=""><span style="position:absolute;left:${String(width + 3)}px;top:2px;white-space:nowrap;background:#fff;padding:0 4px;border-radius:4px;font:12px sans-serif;box-shadow:0 1px 2px #0004">${escapeHtml(label)}</span>`,
  });
}

/** The live map of active drivers; markers move, appear and leave as the drivers:live topic says. */
export default function DriversMap({ centre, drivers, label }: { centre: LatLng; drivers: LiveDriver[]; label: string }) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const markers = useRef(new Map<string, L.Marker>());

  const tiles = useMapTiles();
  const tileUrl = tiles?.url;
  const tileAttribution = tiles?.attribution;

  const { lat, lng } = centre;
  useEffect(() => {
    if (!element.current) return undefined;
    const created = L.map(element.current).setView([lat, lng], DASHBOARD_MAP_ZOOM);
    if (tileUrl) L.tileLayer(tileUrl, { maxZoom: 19, attribution: tileAttribution }).addTo(created);
    map.current = created;
    const placed = markers.current;
    return () => {
      placed.clear();
      map.current = null;
      created.remove();
    };
  }, [lat, lng, tileUrl, tileAttribution]);

  useEffect(() => {
    const current = map.current;
    if (!current) return;
    const seen = new Set<string>();
    for (const driver of drivers) {
      seen.add(driver.uid);
      const marker = markers.current.get(driver.uid);
      if (marker) marker.setLatLng([driver.location.lat, driver.location.lng]).setIcon(markerIcon(driver));
      else markers.current.set(driver.uid, L.marker([driver.location.lat, driver.location.lng], { icon: markerIcon(driver), title: driver.name }).addTo(current));
    }
    for (const [uid, marker] of markers.current) {
      if (seen.has(uid)) continue;
      marker.remove();
      markers.current.delete(uid);
    }
  }, [drivers, lat, lng]);

  return <Box ref={element} role="region" aria-label={label} data-drivers={drivers.length} sx={{ height: { xs: 360, md: 480 }, borderRadius: 1, overflow: 'hidden', zIndex: 0 }} />;
}
