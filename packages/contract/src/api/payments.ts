/** Request and response schemas of the payments routes. */
export {};
