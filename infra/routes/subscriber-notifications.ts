import {
  actionParams,
  bulkBody,
  contextQuery,
  countQuery,
  inboxNotificationSchema,
  listQuery,
  notificationCountsSchema,
  notificationListSchema,
  notificationParams,
  seenBody,
} from '#lib/inbox/subscriber-schemas.ts';
import { snoozeBody } from '#lib/inbox/schemas.ts';
import { subscriberPathParams } from '#lib/subscribers/schemas.ts';
import { inRateLimitCategory, routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// A subscriber's inbox from the server side (/v2/subscribers/{subscriberId}/notifications): what
// a subscriber's session does in /v1/inbox, done with an API key for the subscriber its path
// names, through the same use cases (lib/inbox/), so the same messages, rules, live updates and
// webhooks. `contextKeys` (query, or body for the bulk actions) says which of its inboxes: none is
// the messages sent without a context. Answers unwrapped, as the v2 routes do. Part of the route
// table (infra/routes.ts); the handlers in functions/subscribers/ take their entry from here.

const base = { tag: 'Subscribers', auth: 'apiKey', maxBodyBytes: DEFAULT_BODY_LIMIT } as const;
const PATH = '/v2/subscribers/{subscriberId}/notifications';

/** PATCH …/{notificationId}/<action>: one message's mark, answering the message. */
const markRoute = <const Id extends string, const A extends string>(operationId: Id, action: A, summary: string) => ({
  ...base,
  operationId,
  method: 'PATCH' as const,
  path: `${PATH}/{notificationId}/${action}` as const,
  handler: `functions/subscribers/${action}-subscriber-notification.ts` as const,
  summary,
  repeatedQuery: true as const,
  successStatus: 200,
  request: { params: notificationParams, query: contextQuery },
  response: inboxNotificationSchema,
  sends: ['live'] as const,
});

/** POST …/<action>: every message of the inbox (of some tags or data) the action changes. */
const bulkRoute = <const Id extends string, const A extends string, const H extends string>(
  operationId: Id,
  action: A,
  handler: H,
  summary: string,
) => ({
  ...base,
  operationId,
  method: 'POST' as const,
  path: `${PATH}/${action}` as const,
  handler,
  summary,
  successStatus: 204,
  request: { params: subscriberPathParams, body: bulkBody },
  sends: ['live'] as const,
});

export const subscriberNotificationRoutes = inRateLimitCategory('configuration', [
  {
    ...base,
    operationId: 'listSubscriberNotifications',
    method: 'GET',
    path: PATH,
    handler: 'functions/subscribers/list-subscriber-notifications.ts',
    summary: "List a subscriber's in-app notifications, newest first",
    repeatedQuery: true,
    successStatus: 200,
    request: { params: subscriberPathParams, query: listQuery },
    response: notificationListSchema,
  },
  {
    ...base,
    operationId: 'countSubscriberNotifications',
    method: 'GET',
    path: `${PATH}/count`,
    handler: 'functions/subscribers/count-subscriber-notifications.ts',
    summary: "Count a subscriber's in-app notifications, per filter (at most 100 each)",
    successStatus: 200,
    request: { params: subscriberPathParams, query: countQuery },
    response: notificationCountsSchema,
  },
  markRoute('readSubscriberNotification', 'read', 'Mark a notification read'),
  markRoute('unreadSubscriberNotification', 'unread', 'Mark a notification unread'),
  markRoute('archiveSubscriberNotification', 'archive', 'Archive a notification'),
  markRoute('unarchiveSubscriberNotification', 'unarchive', 'Unarchive a notification'),
  markRoute('unsnoozeSubscriberNotification', 'unsnooze', 'Bring a snoozed notification back'),
  {
    ...base,
    operationId: 'snoozeSubscriberNotification',
    method: 'PATCH',
    path: `${PATH}/{notificationId}/snooze`,
    handler: 'functions/subscribers/snooze-subscriber-notification.ts',
    summary: 'Snooze a notification until a time',
    repeatedQuery: true,
    successStatus: 200,
    request: { params: notificationParams, query: contextQuery, body: snoozeBody },
    response: inboxNotificationSchema,
    sends: ['live'],
  },
  {
    ...base,
    operationId: 'completeSubscriberNotificationAction',
    method: 'PATCH',
    path: `${PATH}/{notificationId}/actions/{actionType}/complete`,
    handler: 'functions/subscribers/complete-subscriber-notification-action.ts',
    summary: 'Complete the primary or secondary action of a notification',
    repeatedQuery: true,
    successStatus: 200,
    request: { params: actionParams, query: contextQuery },
    response: inboxNotificationSchema,
    sends: ['live'],
  },
  {
    ...base,
    operationId: 'revertSubscriberNotificationAction',
    method: 'PATCH',
    path: `${PATH}/{notificationId}/actions/{actionType}/revert`,
    handler: 'functions/subscribers/revert-subscriber-notification-action.ts',
    summary: 'Set the primary or secondary action of a notification pending again',
    repeatedQuery: true,
    successStatus: 200,
    request: { params: actionParams, query: contextQuery },
    response: inboxNotificationSchema,
    sends: ['live'],
  },
  {
    ...base,
    operationId: 'deleteSubscriberNotification',
    method: 'DELETE',
    path: `${PATH}/{notificationId}`,
    handler: 'functions/subscribers/delete-subscriber-notification.ts',
    summary: 'Delete a notification',
    repeatedQuery: true,
    successStatus: 204,
    request: { params: notificationParams, query: contextQuery },
    sends: ['live'],
  },
  {
    ...base,
    operationId: 'markSubscriberNotificationsSeen',
    method: 'POST',
    path: `${PATH}/seen`,
    handler: 'functions/subscribers/mark-subscriber-notifications-seen.ts',
    summary: 'Mark notifications seen (by ids, or of some tags or data)',
    successStatus: 204,
    request: { params: subscriberPathParams, body: seenBody },
    sends: ['live'],
  },
  bulkRoute(
    'readAllSubscriberNotifications',
    'read',
    'functions/subscribers/read-all-subscriber-notifications.ts',
    'Mark every notification read (of some tags or data)',
  ),
  bulkRoute(
    'archiveAllSubscriberNotifications',
    'archive',
    'functions/subscribers/archive-all-subscriber-notifications.ts',
    'Archive every notification (of some tags or data)',
  ),
  bulkRoute(
    'archiveReadSubscriberNotifications',
    'read-archive',
    'functions/subscribers/archive-read-subscriber-notifications.ts',
    'Archive every read notification (of some tags or data)',
  ),
  bulkRoute(
    'deleteAllSubscriberNotifications',
    'delete',
    'functions/subscribers/delete-all-subscriber-notifications.ts',
    'Delete every notification (of some tags or data)',
  ),
] as const satisfies readonly RouteDef[]);

export const route = routeLookup(subscriberNotificationRoutes);
