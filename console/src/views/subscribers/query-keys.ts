// The TanStack Query keys of the subscribers views: what a change invalidates.
export const subscribersListKey = (environmentId: string) => ['subscribers', environmentId];
export const subscriberQueryKey = (environmentId: string, subscriberId: string) => ['subscriber', environmentId, subscriberId];
export const preferencesQueryKey = (environmentId: string, subscriberId: string) => ['subscriber-preferences', environmentId, subscriberId];
