import 'leaflet/dist/leaflet.css';
// Geoman extends the Leaflet that `leaflet` puts on window (it reads the global L), so it comes after it.
import L from 'leaflet';
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import type { ServiceArea } from '@rideway/domain';
import { Box } from '@mui/material';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { BROWSER_POSITION_MAX_AGE_MS, BROWSER_POSITION_TIMEOUT_MS } from '../../config/ui-constants';
import { useMapTiles } from '../../utils/map-tiles';

type Props = { value: ServiceArea; onChange: (area: ServiceArea) => void; label: string };

/** The polygons' look: the app's green, filled lightly so the streets stay readable. */
const AREA_STYLE: L.PathOptions = { color: '#1b5e20', weight: 2, fillOpacity: 0.15 };
/** Until the area or the browser's position says where: the whole world. */
const WORLD_VIEW = { centre: [20, 0] as L.LatLngTuple, zoom: 2 };
/** Around the admin's position: a city. */
const CITY_ZOOM = 11;
/** Six decimals of a degree are about 10 cm: finer adds bytes to every visitor's settings and nothing else. */
const round = (degrees: number): number => Math.round(degrees * 1e6) / 1e6;

/** Geoman's language name for the app's texts (geoman has no Arabic, so the texts are the app's own). */
const GEOMAN_LANGUAGE = 'rideway' as L.PM.SupportLocales;
/** The toolbar's texts this map sets; the rest fall back to geoman's English. */
type ToolbarTexts = Pick<L.PM.Translations, 'tooltips' | 'actions' | 'buttonTitles'>;

/** The outer ring of a polygon drawn on the map, wrapped into -180..180 and rounded. */
function verticesOf(layer: L.Polygon): ServiceArea[number] {
  const rings = layer.getLatLngs() as L.LatLng[][] | L.LatLng[][][];
  const outer = (Array.isArray(rings[0]?.[0]) ? (rings as L.LatLng[][][])[0]?.[0] : (rings as L.LatLng[][])[0]) ?? [];
  return outer.map((latlng) => {
    const wrapped = latlng.wrap();
    return { lat: round(wrapped.lat), lng: round(wrapped.lng) };
  });
}

/** A polygon's vertices moved, or the polygon was dragged: the area changed. */
const watchEdits = (layer: L.Layer, changed: () => void): void => { layer.on('pm:edit pm:dragend', changed); };

/**
 * Issue 16, point 6: the admin draws, edits, moves and removes the service area's polygons with
 * Leaflet-Geoman's toolbar on the configured tiles. Every change hands the whole area up; the
 * settings form saves it with the rest.
 */
export default function ServiceAreaMap({ value, onChange, label }: Props) {
  const { t, i18n } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const polygons = useRef<L.FeatureGroup | null>(null);
  // The last area this map handed up: a value that is not it came from outside (a save), and is drawn anew.
  const handedUp = useRef<ServiceArea | null>(null);
  const latest = useRef({ onChange, value });
  useEffect(() => {
    latest.current = { onChange, value };
  });

  const tiles = useMapTiles();
  const tileUrl = tiles?.url;
  const tileAttribution = tiles?.attribution;

  // Every change of the drawing hands the whole area up: the polygons on the map, as vertices.
  const handUp = useCallback(() => {
    const current = map.current;
    if (!current) return;
    const area = current.pm
      .getGeomanLayers()
      .filter((layer): layer is L.Polygon => layer instanceof L.Polygon)
      .map(verticesOf)
      .filter((polygon) => polygon.length > 0);
    handedUp.current = area;
    latest.current.onChange(area);
  }, []);

  useEffect(() => {
    if (!element.current) return undefined;
    const created = L.map(element.current, { scrollWheelZoom: false }).setView(WORLD_VIEW.centre, WORLD_VIEW.zoom);
    const group = L.featureGroup().addTo(created);
    map.current = created;
    polygons.current = group;
    // Drawn polygons join the area's group, so a redraw from outside replaces them too.
    created.pm.setGlobalOptions({ layerGroup: group, allowSelfIntersection: false, pathOptions: AREA_STYLE, templineStyle: { color: AREA_STYLE.color }, hintlineStyle: { color: AREA_STYLE.color, dashArray: [5, 5] } });
    created.pm.addControls({
      position: 'topleft',
      drawMarker: false,
      drawCircleMarker: false,
      drawPolyline: false,
      drawRectangle: false,
      drawCircle: false,
      drawText: false,
      cutPolygon: false,
      rotateMode: false,
      drawPolygon: true,
      editMode: true,
      dragMode: true,
      removalMode: true,
    });
    created.on('pm:create', ({ layer }) => {
      watchEdits(layer, handUp);
      handUp();
    });
    created.on('pm:remove', handUp);
    // The first view: the area drawn so far, else the admin's city when the browser tells it.
    if (latest.current.value.length === 0 && 'geolocation' in navigator) {
      navigator.geolocation.getCurrentPosition(
        (position) => { if (map.current === created && group.getLayers().length === 0) created.setView([position.coords.latitude, position.coords.longitude], CITY_ZOOM); },
        () => undefined,
        { timeout: BROWSER_POSITION_TIMEOUT_MS, maximumAge: BROWSER_POSITION_MAX_AGE_MS },
      );
    }
    return () => {
      map.current = null;
      polygons.current = null;
      created.remove();
    };
  }, [handUp]);

  // The area from outside (the stored one, or the saved one after Save): drawn anew.
  useEffect(() => {
    const current = map.current;
    const group = polygons.current;
    if (!current || !group || value === handedUp.current) return;
    group.clearLayers();
    for (const polygon of value) watchEdits(L.polygon(polygon.map(({ lat, lng }) => [lat, lng] as L.LatLngTuple), AREA_STYLE).addTo(group), handUp);
    if (value.length > 0 && handedUp.current === null) current.fitBounds(group.getBounds(), { padding: [24, 24] });
    handedUp.current = value;
  }, [value, handUp]);

  useEffect(() => {
    const current = map.current;
    if (!current || !tileUrl) return undefined;
    const layer = L.tileLayer(tileUrl, { maxZoom: 19, attribution: tileAttribution }).addTo(current);
    return () => { layer.remove(); };
  }, [tileUrl, tileAttribution]);

  // Geoman's toolbar titles and drawing hints, in the app's language.
  useEffect(() => {
    const texts: ToolbarTexts = {
      tooltips: { firstVertex: t('area_first_vertex'), continueLine: t('area_continue'), finishPoly: t('area_finish_hint') },
      actions: { finish: t('area_finish'), cancel: t('cancel'), removeLastVertex: t('area_remove_last') },
      buttonTitles: { drawPolyButton: t('area_draw_polygon'), editButton: t('area_edit'), dragButton: t('area_drag'), deleteButton: t('area_delete') },
    };
    map.current?.pm.setLang(GEOMAN_LANGUAGE, texts, 'en');
    // setLang rebuilds the toolbar. Geoman titles each button's box, not the link inside it, so a
    // screen reader would meet nameless links (axe: link-name): each link is named by its title.
    element.current?.querySelectorAll<HTMLElement>('.button-container[title]').forEach((container) => {
      container.querySelector('.leaflet-buttons-control-button')?.setAttribute('aria-label', container.title);
    });
  }, [t, i18n.language]);

  return <Box ref={element} role="region" aria-label={label} data-areas={value.length} sx={{ height: { xs: 320, md: 420 }, borderRadius: 1, overflow: 'hidden', zIndex: 0 }} />;
}
