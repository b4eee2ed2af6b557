import type { RouteObject } from 'react-router';
import { WebhookDetail } from './WebhookDetail.tsx';
import { WebhooksList } from './WebhooksList.tsx';

// The webhooks views, under /console/env/:environmentId/webhooks.
export const webhooksRoutes: RouteObject[] = [
  { path: 'webhooks', element: <WebhooksList /> },
  { path: 'webhooks/:endpointId', element: <WebhookDetail /> },
];
