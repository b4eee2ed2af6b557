// The outbound webhook events, named as the reference names them (its WebhookEventEnum), and the
// kind of object each one is about.

export const MESSAGE_EVENTS = [
  'message.sent',
  'message.failed',
  'message.delivered',
  'message.seen',
  'message.read',
  'message.unread',
  'message.archived',
  'message.unarchived',
  'message.snoozed',
  'message.unsnoozed',
  'message.deleted',
  // Ours (docs/engagement.md): engagement the service tracks itself.
  'message.opened',
  'message.link_clicked',
  'message.link_reclicked',
] as const;
export const WORKFLOW_EVENTS = ['workflow.created', 'workflow.updated', 'workflow.deleted', 'workflow.published'] as const;
export const PREFERENCE_EVENTS = ['preference.updated'] as const;

export const WEBHOOK_EVENT_TYPES = [...MESSAGE_EVENTS, ...WORKFLOW_EVENTS, ...PREFERENCE_EVENTS] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type WebhookObjectType = 'message' | 'workflow' | 'preference';

/**
 * Sent only to endpoints that name them (an endpoint with no event types takes every other one):
 * a click after a message's first, which a busy link would otherwise send by the thousand.
 */
export const OPT_IN_EVENTS: readonly WebhookEventType[] = ['message.link_reclicked'];

export const objectTypeOf = (type: WebhookEventType): WebhookObjectType => type.slice(0, type.indexOf('.')) as WebhookObjectType;
