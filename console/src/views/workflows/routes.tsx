import type { RouteObject } from 'react-router';
import { TriggerTestEvent } from './TriggerTestEvent.tsx';
import { WorkflowDetail } from './WorkflowDetail.tsx';
import { WorkflowsList } from './WorkflowsList.tsx';

// The workflows views, under /console/env/:environmentId/workflows.
export const workflowsRoutes: RouteObject[] = [
  { path: 'workflows', element: <WorkflowsList /> },
  { path: 'workflows/:workflowId', element: <WorkflowDetail /> },
  { path: 'workflows/:workflowId/trigger', element: <TriggerTestEvent /> },
];
