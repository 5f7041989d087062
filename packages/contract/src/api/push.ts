/** Request and response schemas of the push routes. */
export {};
