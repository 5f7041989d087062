/** Request and response schemas of the reports routes. */
export {};
