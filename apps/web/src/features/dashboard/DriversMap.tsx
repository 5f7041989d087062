import { DASHBOARD_MAP_ZOOM, DRIVER_MARKER_SIZE_PX, type LatLng } from '@rideway/domain';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import type { LiveDriver } from '../../api/dashboard';
import { placeLabels } from '../../components/map/declutter';
import { MapFrame } from '../../components/map/MapFrame';
import { useLeafletMap } from '../../components/map/use-leaflet-map';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const labelOf = (driver: LiveDriver): string => `${driver.name}${driver.vehicleNumber ? ` · ${driver.vehicleNumber}` : ''}`;

/**
 * Section 2's driver marker (35 by 25), with the driver's name and vehicle number beside it. The
 * label starts to the right of the car; layoutLabels moves it where it fits among the others.
 */
function markerIcon(driver: LiveDriver): L.DivIcon {
  const { width, height } = DRIVER_MARKER_SIZE_PX;
  return L.divIcon({
    className: 'rideway-driver-marker',
    iconSize: [width, height],
    iconAnchor: [Math.floor(width / 2), Math.floor(height / 2)],
    html:
      `<img src="/cars/${driver.busy ? 'xl' : 'economy'}.svg" width="${String(width)}" height="${String(height)}" alt="">` +
      '<span class="rideway-driver-leader"></span>' +
      `<span class="rideway-driver-label" style="left:${String(width + 3)}px;top:${String(Math.round(height / 2) - 9)}px">${escapeHtml(labelOf(driver))}</span>`,
  });
}

/**
 * Declutters the labels: drivers close together at the dashboard's zoom would pile their labels
 * into one unreadable block, so each goes where it covers no car and no other label (with a
 * leader line when it had to move out), and one that fits nowhere shows on hover and focus.
 */
function layoutLabels(map: L.Map, markers: ReadonlyMap<string, L.Marker>): void {
  const { width, height } = DRIVER_MARKER_SIZE_PX;
  const items = [];
  const elements = new Map<string, { icon: HTMLElement; label: HTMLElement; leader: HTMLElement }>();
  for (const [uid, marker] of markers) {
    const icon = marker.getElement();
    const label = icon?.querySelector<HTMLElement>('.rideway-driver-label');
    const leader = icon?.querySelector<HTMLElement>('.rideway-driver-leader');
    if (!icon || !label || !leader) continue;
    elements.set(uid, { icon, label, leader });
    items.push({ id: uid, at: map.latLngToContainerPoint(marker.getLatLng()), label: { width: label.offsetWidth, height: label.offsetHeight } });
  }
  const size = map.getSize();
  const placements = placeLabels(items, { width, height }, { width: size.x, height: size.y });
  for (const [uid, { icon, label, leader }] of elements) {
    const placement = placements.get(uid) ?? null;
    label.dataset.placed = placement ? 'yes' : 'no';
    icon.dataset.leader = placement?.leaderTo ? 'yes' : 'no';
    if (!placement) {
      label.style.left = `${String(width + 3)}px`;
      label.style.top = `${String(Math.round(height / 2) - 9)}px`;
      continue;
    }
    // Offsets are from the car's centre; the label is positioned from the icon's corner.
    label.style.left = `${String(Math.round(width / 2 + placement.offset.x))}px`;
    label.style.top = `${String(Math.round(height / 2 + placement.offset.y))}px`;
    if (placement.leaderTo) {
      const { x, y } = placement.leaderTo;
      leader.style.left = `${String(width / 2)}px`;
      leader.style.top = `${String(height / 2)}px`;
      leader.style.width = `${String(Math.round(Math.hypot(x, y)))}px`;
      leader.style.transform = `rotate(${String(Math.atan2(y, x))}rad)`;
    }
  }
}

/** The live map of active drivers; markers move, appear and leave as the drivers:live topic says. */
export default function DriversMap({ centre, drivers, label }: { centre: LatLng; drivers: LiveDriver[]; label: string }) {
  const leaflet = useLeafletMap({}, (map) => map.setView([centre.lat, centre.lng], DASHBOARD_MAP_ZOOM));
  const { map } = leaflet;
  const markers = useRef(new Map<string, L.Marker>());
  // Each marker's icon text, so a move alone keeps its icon (and its label where the layout put it).
  const shown = useRef(new Map<string, string>());

  const { lat, lng } = centre;
  useEffect(() => {
    map?.setView([lat, lng], DASHBOARD_MAP_ZOOM);
  }, [map, lat, lng]);

  useEffect(() => {
    if (!map) return undefined;
    const layout = () => { layoutLabels(map, markers.current); };
    map.on('moveend resize', layout);
    const placed = markers.current;
    const icons = shown.current;
    return () => {
      map.off('moveend resize', layout);
      placed.clear();
      icons.clear();
    };
  }, [map]);

  useEffect(() => {
    if (!map) return;
    const seen = new Set<string>();
    for (const driver of drivers) {
      seen.add(driver.uid);
      const at: L.LatLngTuple = [driver.location.lat, driver.location.lng];
      const text = `${driver.busy ? 'busy' : 'free'}|${labelOf(driver)}`;
      const marker = markers.current.get(driver.uid);
      if (!marker) {
        markers.current.set(driver.uid, L.marker(at, { icon: markerIcon(driver), title: driver.name, riseOnHover: true }).addTo(map));
      } else {
        marker.setLatLng(at);
        if (shown.current.get(driver.uid) !== text) marker.setIcon(markerIcon(driver));
      }
      shown.current.set(driver.uid, text);
    }
    for (const [uid, marker] of markers.current) {
      if (seen.has(uid)) continue;
      marker.remove();
      markers.current.delete(uid);
      shown.current.delete(uid);
    }
    layoutLabels(map, markers.current);
  }, [map, drivers]);

  return <MapFrame label={label} leaflet={leaflet} data={{ 'data-drivers': drivers.length }} height={{ xs: 360, md: 480 }} />;
}
