// The client (`@novu/js` in PartySocket mode) sends the text frame `ping` every 25 seconds after
// the socket opens, which also keeps API Gateway's 10-minute idle timeout away. It ignores `ping`
// and `pong` frames it receives, and every frame that is not JSON.

/** The reply to a frame the client sent: `pong` to its heartbeat, else nothing. */
export const replyTo = (frame: string | undefined): string | undefined => (frame === 'ping' ? 'pong' : undefined);
