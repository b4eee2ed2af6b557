import type { RouteObject } from 'react-router';
import { WebhooksList } from './WebhooksList.tsx';

// The webhooks views, under /console/env/:environmentId/webhooks.
export const webhooksRoutes: RouteObject[] = [{ path: 'webhooks', element: <WebhooksList /> }];
