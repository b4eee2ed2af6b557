import { activityListSchema, activityNotificationSchema, listNotificationsQuery, notificationParams } from '#lib/activity/schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// The activity feed (/v1/notifications). Part of the route table (infra/routes.ts); the handlers in
// functions/notifications/ take their entry from here, so their bundles hold only this area's schemas.

export const notificationRoutes = [
  {
    operationId: 'listNotifications',
    method: 'GET',
    path: '/v1/notifications',
    handler: 'functions/notifications/list-notifications.ts',
    summary: 'Activity feed: the notifications of the environment with their jobs, newest first, filtered and paged',
    tag: 'Notifications',
    auth: 'apiKey',
    successStatus: 200,
    request: { query: listNotificationsQuery },
    response: activityListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'getNotification',
    method: 'GET',
    path: '/v1/notifications/{notificationId}',
    handler: 'functions/notifications/get-notification.ts',
    summary: 'One notification of the activity feed, with its jobs and execution details',
    tag: 'Notifications',
    auth: 'apiKey',
    successStatus: 200,
    request: { params: notificationParams },
    response: activityNotificationSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(notificationRoutes);
