import L from 'leaflet';

/** The booking's two places, in the colours every map here uses for them. */
export type PlaceKind = 'pickup' | 'drop';
export const PLACE_COLOURS: Record<PlaceKind, string> = { pickup: '#2e7d32', drop: '#c62828' };

const PIN = { width: 30, height: 40 };

/** A map pin for the pickup or the drop, its tip on the place. */
export function placePin(kind: PlaceKind): L.DivIcon {
  return L.divIcon({
    className: `rideway-pin rideway-pin-${kind}`,
    iconSize: [PIN.width, PIN.height],
    iconAnchor: [PIN.width / 2, PIN.height],
    // A name beside the pin's head: to its right on the map's left half, to its left on the right half.
    tooltipAnchor: [PIN.width / 2 - 1, -PIN.height + 14],
    html: `<svg viewBox="0 0 30 40" width="${String(PIN.width)}" height="${String(PIN.height)}" aria-hidden="true" focusable="false"><path d="M15 39C15 39 28 23.5 28 14A13 13 0 1 0 2 14C2 23.5 15 39 15 39Z" fill="${PLACE_COLOURS[kind]}" stroke="#fff" stroke-width="2"/><circle cx="15" cy="14" r="5" fill="#fff"/></svg>`,
  });
}

/** A place's name on the map, always shown, beside its pin towards the map's middle. */
export const PLACE_LABEL: L.TooltipOptions = { permanent: true, direction: 'auto', className: 'rideway-place-label' };

/**
 * Room around places fitted in view: a pin stands 40 px above its place, and the note on missing
 * tiles covers the top of the map, so the places are kept below it.
 */
export function fitAround(tilesUnavailable: boolean, maxZoom = 16): L.FitBoundsOptions {
  return { paddingTopLeft: [32, tilesUnavailable ? 100 : 56], paddingBottomRight: [32, 24], maxZoom };
}

const CAR_BOX = 40;

/**
 * The driver's car seen from above, nose first, turned to its heading (degrees clockwise from
 * north); pointing north while the heading is not known yet.
 */
export function carIcon(heading: number | null): L.DivIcon {
  const turn = Math.round(heading ?? 0);
  return L.divIcon({
    className: 'rideway-car',
    iconSize: [CAR_BOX, CAR_BOX],
    iconAnchor: [CAR_BOX / 2, CAR_BOX / 2],
    tooltipAnchor: [0, -CAR_BOX / 2],
    html:
      `<div class="rideway-car-body" data-heading="${heading === null ? '' : String(turn)}" style="transform:rotate(${String(turn)}deg)">` +
      `<svg viewBox="0 0 40 40" width="${String(CAR_BOX)}" height="${String(CAR_BOX)}" aria-hidden="true" focusable="false">` +
      '<rect x="11" y="3" width="18" height="34" rx="6" fill="#ffb300" stroke="#263238" stroke-width="1.5"/>' +
      '<path d="M13.5 12.5Q20 8.5 26.5 12.5L25.5 17.5H14.5Z" fill="#263238"/>' +
      '<path d="M14.5 29H25.5L26 32.5Q20 34.5 14 32.5Z" fill="#263238"/>' +
      '<rect x="14.5" y="19.5" width="11" height="8" rx="1.5" fill="#ffca28"/>' +
      '<circle cx="14.5" cy="5.5" r="1.4" fill="#fffde7"/><circle cx="25.5" cy="5.5" r="1.4" fill="#fffde7"/>' +
      '</svg></div>',
  });
}
