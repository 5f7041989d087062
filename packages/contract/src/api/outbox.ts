/** Request and response schemas of the outbox routes. */
export {};
