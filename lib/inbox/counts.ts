import { contextKeyOf } from '../context-keys.ts';
import type { EnvScope } from '../scope.ts';
import type { Severity } from '../workflows/model.ts';
import { countUnreadBySeverity, countUnseen } from './repository.ts';

// The counts an inbox shows: unread (in all, and per severity, for the bell) and unseen. Each is
// read from a sparse index that holds only what it counts, and counted no further than
// MAX_INBOX_COUNT, so its cost does not grow with the inbox (docs/data-model.md).

/** Counts stop here: the client shows "99+" beyond 99. */
export const MAX_INBOX_COUNT = 100;

export const SEVERITIES: readonly Severity[] = ['high', 'medium', 'low', 'none'];

export interface UnreadCounts {
  total: number;
  severity: Record<Severity, number>;
}

/** Which inbox: the subscriber's messages of exactly these context keys. */
export interface InboxRef {
  scope: EnvScope;
  subscriberId: string;
  contextKeys: readonly string[];
}

export async function unreadCounts(inbox: InboxRef): Promise<UnreadCounts> {
  const counts = await countUnreadBySeverity(inbox.scope, inbox.subscriberId, contextKeyOf(inbox.contextKeys), SEVERITIES, MAX_INBOX_COUNT);
  const severity = Object.fromEntries(SEVERITIES.map((s) => [s, counts[s] ?? 0])) as Record<Severity, number>;
  return {
    total: Math.min(
      MAX_INBOX_COUNT,
      SEVERITIES.reduce((sum, s) => sum + severity[s], 0),
    ),
    severity,
  };
}

export function unseenCount(inbox: InboxRef): Promise<number> {
  return countUnseen(inbox.scope, inbox.subscriberId, contextKeyOf(inbox.contextKeys), MAX_INBOX_COUNT);
}
