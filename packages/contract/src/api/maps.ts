/** Request and response schemas of the maps routes. */
export {};
