import type { RouteObject } from 'react-router';
import { SubscriberPage } from './SubscriberPage.tsx';
import { SubscribersList } from './SubscribersList.tsx';

// The subscribers views, under /console/env/:environmentId/subscribers.
export const subscribersRoutes: RouteObject[] = [
  { path: 'subscribers', element: <SubscribersList /> },
  { path: 'subscribers/:subscriberId', element: <SubscriberPage /> },
];
