/** Test data shared by the API tests: a car type and two places in the demo city. */
export const sedan = {
  name: 'Sedan',
  base_fare: 2.5,
  rate_per_unit_distance: 1.2,
  rate_per_hour: 18,
  min_fare: 5,
  convenience_fees: 10,
  convenience_fee_type: 'percentage' as const,
};
export const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
export const drop = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };

/** A 1x1 PNG as a data URL: a licence, a car type's image or a parcel's photo. */
export const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
