import type { ActivityNotification } from './types.ts';
import { consolePath } from '../../components/console-path.ts';

// How the activity views write people and links to the other areas.

/** The subscriber as a person reads them: their id, with name or email when known. */
export function subscriberLabel(n: ActivityNotification): string {
  const s = n.subscriber;
  if (!s) return 'Deleted subscriber';
  const name = [s.firstName, s.lastName].filter(Boolean).join(' ');
  const extra = name || s.email;
  return extra ? `${s.subscriberId} (${extra})` : s.subscriberId;
}

export const workflowName = (n: ActivityNotification): string => n.template?.name ?? 'Deleted workflow';

/** The workflow's page, by its workflowId (its database id once it has no trigger). */
export function workflowPath(environmentId: string, n: ActivityNotification): string | undefined {
  const id = n.template?.triggers[0]?.identifier ?? n.template?._id;
  return id ? consolePath(environmentId, 'workflows', id) : undefined;
}

export function subscriberPath(environmentId: string, n: ActivityNotification): string | undefined {
  return n.subscriber ? consolePath(environmentId, 'subscribers', n.subscriber.subscriberId) : undefined;
}

export const notificationPath = (environmentId: string, notificationId: string): string =>
  consolePath(environmentId, 'activity', notificationId);
