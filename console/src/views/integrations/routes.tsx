import './integrations.css';
import type { RouteObject } from 'react-router';
import { IntegrationPage } from './IntegrationPage.tsx';
import { IntegrationsList } from './IntegrationsList.tsx';
import { NewIntegration } from './NewIntegration.tsx';

// The integrations views, under /console/env/:environmentId/integrations.
export const integrationsRoutes: RouteObject[] = [
  {
    path: 'integrations',
    children: [
      { index: true, element: <IntegrationsList /> },
      { path: 'new', element: <NewIntegration /> },
      { path: ':integrationId', element: <IntegrationPage /> },
    ],
  },
];
