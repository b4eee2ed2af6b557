import { NotFoundError } from '../errors.ts';
import { isId } from '../ids.ts';
import type { EnvScope } from '../store/keys.ts';
import { deleteMessage, findMessageKey } from './repository.ts';

/** Deletes a message of the environment by id; 404 when there is none (or it cannot be an id). */
export async function removeMessage(scope: EnvScope, messageId: string) {
  const id = messageId.toLowerCase();
  const key = isId(id) ? await findMessageKey(scope, id) : undefined;
  if (!key || !(await deleteMessage(key))) throw new NotFoundError(`Message with id ${messageId} not found`);
  return { acknowledged: true, status: 'deleted' as const };
}
