// Bounds on every request to the service's own AWS dependencies (the table, the queues). The SDK
// sets none: a connection that stops answering (a half-open socket, an overloaded emulator) would
// hold the call, and the socket it occupies, until the function times out. With these the SDK
// gives up on that attempt and retries it like any other transient failure. Generous, because a
// DynamoDB or SQS answer takes milliseconds and a slow one is still better than a retry.
export const SDK_REQUEST_HANDLER = { connectionTimeout: 5_000, requestTimeout: 20_000 } as const;
