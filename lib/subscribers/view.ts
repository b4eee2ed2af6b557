import type { Subscriber } from './model.ts';

/** The subscriber as the API shows it: fields the reference always returns get their defaults. */
export function toSubscriberView(subscriber: Subscriber): Subscriber {
  return {
    ...subscriber,
    channels: subscriber.channels ?? [],
    isOnline: subscriber.isOnline ?? null,
    lastOnlineAt: subscriber.lastOnlineAt ?? null,
  };
}

/**
 * The timestamp of a change: now, but always later than the previous one, so a client sees
 * `updatedAt` move even when two writes fall in the same millisecond.
 */
export function changeTimestamp(previous: string): string {
  const before = Date.parse(previous);
  return new Date(Number.isNaN(before) ? Date.now() : Math.max(Date.now(), before + 1)).toISOString();
}
