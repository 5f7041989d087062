/** Request and response schemas of the chat routes. */
export {};
