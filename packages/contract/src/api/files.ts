/** Request and response schemas of the files routes. */
export {};
