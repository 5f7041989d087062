/** Request and response schemas of the languages routes. */
export {};
