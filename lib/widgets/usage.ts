import type { SubscriberSession } from '../auth/session-token.ts';
import { logger } from '../logger.ts';
import { widgetCaller } from './subscriber.ts';

// POST /v1/widgets/usage/log: the widget reports each notification click. Nothing is kept; the
// event goes to the log (names and ids only), where usage can be counted.

export async function logWidgetUsage(session: SubscriberSession, input: { name: string; payload?: Record<string, unknown> | undefined }) {
  const { scope, subscriberId } = await widgetCaller(session);
  const notificationId = input.payload?.notificationId;
  logger.info('Widget usage', {
    ...scope,
    subscriberId,
    name: input.name,
    ...(typeof notificationId === 'string' && { notificationId: notificationId.slice(0, 64) }),
  });
  return { success: true };
}
