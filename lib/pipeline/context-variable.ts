import type { EnvScope } from '../scope.ts';
import type { StoredNotification } from './model.ts';
import { cachedContexts } from './read-cache.ts';

// What templates and conditions see as `context`: `{<type>: {id, data}}` for each context the
// trigger named, its data as stored when the job runs (the reference reads the stored contexts
// at every send; a trigger only creates the new ones). A context deleted since the trigger is
// what the trigger said of it.

export async function contextVariable(scope: EnvScope, notification: StoredNotification): Promise<Record<string, unknown>> {
  if (notification.contextKeys.length === 0) return {};
  const stored = await cachedContexts(scope, notification.contextKeys, Date.parse(notification.createdAt));
  const byKey = new Map(stored.map((c) => [`${c.type}:${c.id}`, c]));
  return Object.fromEntries(
    notification.contextKeys.map((key) => {
      const [type, ...rest] = key.split(':');
      const id = rest.join(':');
      const found = byKey.get(key);
      const given = notification.context?.[type!];
      return [type, found ? { id, data: found.data } : { id, ...(given?.data && { data: given.data }) }];
    }),
  );
}
