/** Request and response schemas of the tracking routes. */
export {};
