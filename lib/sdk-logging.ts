// Nothing in the service logs AWS SDK calls, but the SDK's logger middleware still copies every
// request and response through the schema's sensitive-data filter for its no-op logger (which has
// an `info` to call): about 0.3 ms of CPU per 25-item batch write, and 3 % of the local runtime's
// CPU while it polls. Every client the service and its local runtime make goes without it.

interface WithMiddleware {
  middlewareStack: { remove(toRemove: string): boolean };
}

export function withoutSdkLogging<C extends WithMiddleware>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
