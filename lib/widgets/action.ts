import type { SubscriberSession } from '../auth/session-token.ts';
import { updateMessageAction } from '../messages/action.ts';
import type { MessageActionInput } from '../messages/schemas.ts';
import { widgetCaller } from './subscriber.ts';
import { widgetMessage } from '../messages/widget-view.ts';

// POST /messages/{id}/actions/{type}: the legacy action update of the API-key route, on the
// caller's own message (read under its subscriber key: another's is not found).

export async function updateWidgetAction(
  session: SubscriberSession,
  messageId: string,
  type: 'primary' | 'secondary',
  input: MessageActionInput,
) {
  const { scope, subscriberId, subscriber } = await widgetCaller(session);
  return widgetMessage(await updateMessageAction(scope, subscriberId, messageId, type, input), subscriber);
}
