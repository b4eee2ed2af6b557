import type { RouteObject } from 'react-router';
import { TriggerTestEvent } from './TriggerTestEvent.tsx';
import { WorkflowDetail } from './WorkflowDetail.tsx';
import { WorkflowsList } from './WorkflowsList.tsx';

// The workflows views, under /console/env/:environmentId/workflows.
export const workflowsRoutes: RouteObject[] = [
  { path: 'workflows', element: <WorkflowsList /> },
  { path: 'workflows/:workflowId', element: <WorkflowDetail /> },
  { path: 'workflows/:workflowId/trigger', element: <TriggerTestEvent /> },
  // The editor (with the control schemas of every kind of step) loads when it is opened.
  { path: 'workflows/new', lazy: () => import('./editor/WorkflowEditor.tsx').then(({ NewWorkflow }) => ({ Component: NewWorkflow })) },
  {
    path: 'workflows/:workflowId/edit',
    lazy: () => import('./editor/WorkflowEditor.tsx').then(({ EditWorkflow }) => ({ Component: EditWorkflow })),
  },
];
