/** Request and response schemas of the compat routes. */
export {};
