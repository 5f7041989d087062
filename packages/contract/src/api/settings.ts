/** Request and response schemas of the settings routes. */
export {};
