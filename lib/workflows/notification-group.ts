import { NotFoundError } from '../errors.ts';
import { idOf, isId, timeOfId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';

// Notification groups of v1 workflows. The reference gives every environment one group, "General",
// when it is made, and groups only label workflows (no delivery depends on them). Here every
// environment has exactly that one group and no other: its id is made from the environment's
// (stable, so nothing is stored), every workflow belongs to it, and a v1 create or update must
// name it.

export interface NotificationGroup {
  _id: string;
  name: string;
  _environmentId: string;
  _organizationId: string;
}

export const DEFAULT_GROUP_NAME = 'General';

/** The id of the environment's group: the environment's creation time, then a hash of its id. */
export function notificationGroupIdOf(environmentId: string): string {
  return idOf(`notification-group:${environmentId}`, isId(environmentId) ? timeOfId(environmentId).getTime() : 0);
}

export function notificationGroupOf(scope: EnvScope): NotificationGroup {
  return {
    _id: notificationGroupIdOf(scope.environmentId),
    name: DEFAULT_GROUP_NAME,
    _environmentId: scope.environmentId,
    _organizationId: scope.organizationId,
  };
}

/** The environment's groups: its one group. */
export function listNotificationGroups(scope: EnvScope): NotificationGroup[] {
  return [notificationGroupOf(scope)];
}

/** The group of that id in the caller's environment, else 404. */
export function requireNotificationGroup(scope: EnvScope, groupId: string): NotificationGroup {
  const group = notificationGroupOf(scope);
  if (group._id !== groupId) throw new NotFoundError(`Notification group with id ${groupId} not found`);
  return group;
}
