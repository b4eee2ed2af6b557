import type { EnvScope } from '../scope.ts';
import { changeListedMessages } from './mark-as.ts';
import type { StoredMessage } from './model.ts';
import type { MarkFlagsInput } from './schemas.ts';
import { flagged } from './state.ts';

/**
 * The older twin of mark-as (`POST /v1/subscribers/{id}/messages/markAs`, what `@novu/node`'s
 * markMessageSeen/Read/As call): sets the flags sent, `{seen?, read?}`, on the listed messages of
 * the subscriber and returns them as they are now. Ids of other subscribers are ignored.
 */
export function markMessageFlags(scope: EnvScope, subscriberId: string, input: MarkFlagsInput): Promise<StoredMessage[]> {
  return changeListedMessages(scope, subscriberId, input.messageId, (message, now) => flagged(message, input.mark, now));
}
