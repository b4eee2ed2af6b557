import type { RouteObject } from 'react-router';
import { WorkflowsList } from './WorkflowsList.tsx';

// The workflows views, under /console/env/:environmentId/workflows.
export const workflowsRoutes: RouteObject[] = [{ path: 'workflows', element: <WorkflowsList /> }];
