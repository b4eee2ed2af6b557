// What API Gateway's WebSocket APIs impose on a connection (its quotas, which cannot be raised).
// The connection items' lifetime follows them, and the local runtime's socket server applies the
// same limits, so sockets behave alike in both places.

/** API Gateway closes every connection after 2 hours; clients (PartySocket) reconnect. */
export const MAX_CONNECTION_SECONDS = 2 * 60 * 60;
/** ...and one that carried no message for 10 minutes (the client's 25 s pings keep it open). */
export const IDLE_TIMEOUT_SECONDS = 10 * 60;
/** The largest message PostToConnection sends (128 KB). */
export const MAX_FRAME_BYTES = 128 * 1024;
