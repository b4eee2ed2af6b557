import { AppError, type FieldError } from '../errors.ts';
import type { SubscriptionChange } from './schemas.ts';

// The result of subscribing or unsubscribing a list of subscribers: what changed, and why the
// others did not. When none succeeds the whole request is a 400, as in the reference.

type ChangeError = NonNullable<SubscriptionChange['errors']>[number];
export type ChangeOutcome = { changed: SubscriptionChange['data'][number] } | { error: ChangeError };

export const subscriberNotFound = (subscriberId: string): ChangeError => ({
  subscriberId,
  code: 'SUBSCRIBER_NOT_FOUND',
  message: `Subscriber with ID '${subscriberId}' could not be found.`,
});

export const subscriptionNotFound = (subscriberId: string): ChangeError => ({
  subscriberId,
  code: 'SUBSCRIPTION_NOT_FOUND',
  message: `Subscription for subscriber '${subscriberId}' not found.`,
});

/** Each subscriberId once, in the order first sent. */
export const distinct = (ids: string[]) => [...new Set(ids)];

/** `fieldOf` names where in the body each subscriber was asked for (`subscriberIds.3`), for the 400's `errors`. */
export function changeResult(
  fieldOf: (subscriberId: string) => string,
  outcomes: ChangeOutcome[],
  noneMessage: string,
): SubscriptionChange {
  const data = outcomes.flatMap((o) => ('changed' in o ? [o.changed] : []));
  const errors = outcomes.flatMap((o) => ('error' in o ? [o.error] : []));
  if (data.length === 0) {
    const fields: Record<string, FieldError> = {};
    for (const e of errors) fields[fieldOf(e.subscriberId)] = { messages: [e.message], value: e.subscriberId };
    throw new AppError(400, noneMessage, { errors: fields });
  }
  return {
    data,
    meta: { totalCount: outcomes.length, successful: data.length, failed: errors.length },
    ...(errors.length > 0 && { errors }),
  };
}
