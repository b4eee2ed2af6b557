import type { RouteObject } from 'react-router';
import { ActivityList } from './ActivityList.tsx';
import { NotificationTimeline } from './NotificationTimeline.tsx';

// The activity views, under /console/env/:environmentId/activity.
export const activityRoutes: RouteObject[] = [
  { path: 'activity', element: <ActivityList /> },
  { path: 'activity/:notificationId', element: <NotificationTimeline /> },
];
