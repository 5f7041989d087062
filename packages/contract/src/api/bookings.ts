/** Request and response schemas of the bookings routes. */
export {};
