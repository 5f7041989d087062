/**
 * The OpenStreetMap objects the Nominatim and Photon stand-ins know: the same objects in both,
 * as a Photon index imported from a Nominatim database has them.
 */
export type OsmPlace = {
  /** Nominatim's own id: not the OSM id, and not stable between imports. */
  placeId: number;
  osmType: 'node' | 'way' | 'relation';
  osmId: number;
  lat: number;
  lng: number;
  name: string;
  housenumber?: string;
  street?: string;
  city?: string;
  postcode?: string;
  country: string;
  category: string;
  type: string;
};

export const OSM_PLACES: OsmPlace[] = [
  { placeId: 300_001, osmType: 'node', osmId: 3_638_793_315, lat: 51.5237629, lng: -0.1584743, name: 'Sherlock Holmes Museum', housenumber: '221b', street: 'Baker Street', city: 'London', postcode: 'NW1 6XE', country: 'United Kingdom', category: 'tourism', type: 'museum' },
  { placeId: 300_002, osmType: 'way', osmId: 4_254_749, lat: 51.5308, lng: -0.1238, name: "King's Cross", street: 'Euston Road', city: 'London', postcode: 'N1C 4QP', country: 'United Kingdom', category: 'railway', type: 'station' },
  { placeId: 300_003, osmType: 'relation', osmId: 3_697_428, lat: 51.5081, lng: -0.0759, name: 'Tower of London', city: 'London', postcode: 'EC3N 4AB', country: 'United Kingdom', category: 'historic', type: 'castle' },
  { placeId: 300_004, osmType: 'way', osmId: 4_244_999, lat: 51.52, lng: -0.1, name: 'Old Street', city: 'London', country: 'United Kingdom', category: 'highway', type: 'primary' },
];

const LETTER = { node: 'N', way: 'W', relation: 'R' } as const;
export const osmPlaceId = (place: OsmPlace): string => `${LETTER[place.osmType]}${place.osmId}`;

/** Nominatim's display_name: the name and the address parts, comma-separated. */
export const displayName = (place: OsmPlace): string =>
  [place.name, [place.housenumber, place.street].filter(Boolean).join(' '), place.city, place.postcode, place.country].filter((part) => part !== undefined && part !== '').join(', ');

/** Every word of the query in the place's name or address, ignoring case. */
export const matches = (place: OsmPlace, query: string): boolean => {
  const haystack = displayName(place).toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
};
