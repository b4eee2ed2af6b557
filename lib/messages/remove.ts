import { NotFoundError } from '../errors.ts';
import { isId } from '../ids.ts';
import { announce } from '../live/announce.ts';
import type { EnvScope } from '../scope.ts';
import { deleteMessage, findMessageKey } from './repository.ts';

/** Deletes a message of the environment by id; 404 when there is none (or it cannot be an id). */
export async function removeMessage(scope: EnvScope, messageId: string) {
  const id = messageId.toLowerCase();
  const key = isId(id) ? await findMessageKey(scope, id) : undefined;
  const deleted = key && (await deleteMessage(key));
  if (!deleted) throw new NotFoundError(`Message with id ${messageId} not found`);
  // An inbox open on a socket updates its counts.
  if (deleted.channel === 'in_app') await announce(scope, deleted.subscriberId, { kind: 'counts' });
  return { acknowledged: true, status: 'deleted' as const };
}
