import { NotFoundError } from '../errors.ts';
import { isId } from '../ids.ts';
import { findNotificationById } from '../pipeline/notification-store.ts';
import type { EnvScope } from '../scope.ts';
import type { ActivityNotification } from './schemas.ts';
import { toActivityNotifications } from './view.ts';

/** One notification of the activity feed; an id that is not one of ours is simply not found. */
export async function getActivityNotification(scope: EnvScope, notificationId: string): Promise<ActivityNotification> {
  // Only a well-formed id names a day of the activity index.
  const found = isId(notificationId) ? await findNotificationById(scope, notificationId) : undefined;
  if (!found) throw new NotFoundError(`Notification with id ${notificationId} not found`);
  const [view] = await toActivityNotifications(scope, [found.notification]);
  return view!;
}
