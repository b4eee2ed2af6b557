import { BadRequestError, NotFoundError } from '../errors.ts';
import { announce } from '../live/announce.ts';
import type { EnvScope } from '../scope.ts';
import type { MessageButton, StoredMessage } from './model.ts';
import { getMessage } from './repository.ts';
import type { MessageActionInput } from './schemas.ts';
import { actionUpdated } from './state.ts';
import { assertSubscriberExists } from './subscriber.ts';
import { changeMessage } from './transition.ts';
import { messageView } from './view.ts';

/**
 * The legacy update of a message's action (`POST /v1/subscribers/{id}/messages/{messageId}/actions/{type}`):
 * its status, the button it was taken with and the payload sent, through the one state
 * mechanism. A message without a button of that type cannot show the change: 400, as the inbox's
 * complete and revert answer.
 */
export async function updateMessageAction(
  scope: EnvScope,
  subscriberId: string,
  messageId: string,
  type: MessageButton['type'],
  input: MessageActionInput,
): Promise<StoredMessage> {
  await assertSubscriberExists(scope, subscriberId);
  const message = await getMessage(scope, subscriberId, messageId.toLowerCase());
  if (!message) throw new NotFoundError(`Message ${messageId} not found`);
  if (!message.cta.action?.buttons?.some((button) => button.type === type))
    throw new BadRequestError(`Message ${messageId} has no ${type} action`);

  const now = new Date().toISOString();
  const result = await changeMessage(scope, subscriberId, message, (current) => actionUpdated(current, type, input, now));
  // Deleted between the read and the write.
  if (!result) throw new NotFoundError(`Message ${messageId} not found`);
  if (result.changed && result.message.channel === 'in_app') await announce(scope, subscriberId, { kind: 'counts' });
  return messageView(result.message);
}
