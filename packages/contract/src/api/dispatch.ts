/** Request and response schemas of the dispatch routes. */
export {};
