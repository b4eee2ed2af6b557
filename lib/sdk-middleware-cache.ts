// An AWS SDK client resolves its middleware stack again on every send unless told to keep it per
// command class (`cacheMiddleware`): about a fifth of a small request's CPU here (a frame's
// PostToConnection: 0.79 → 0.63 ms, bench/push-alone.ts). Only for clients that nothing adds
// middleware to after their first send (the tracer and the local fault injection add to the
// table's and the queues' clients), and never for the document client: its commands resolve to a
// handler bound to the first command's input (@aws-sdk/lib-dynamodb 3.1162, aws-sdk-js-v3 #7801).

export const CACHED_MIDDLEWARE = { cacheMiddleware: true } as const;
