import type { RouteObject } from 'react-router';
import { IntegrationsList } from './IntegrationsList.tsx';

// The integrations views, under /console/env/:environmentId/integrations.
export const integrationsRoutes: RouteObject[] = [{ path: 'integrations', element: <IntegrationsList /> }];
