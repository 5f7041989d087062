/** The WebSocket's messages, client to server and server to client, per topic (docs/realtime.md). */
export {};
