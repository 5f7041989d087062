/** Request and response schemas of the presence routes. */
export {};
