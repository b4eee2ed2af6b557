import { Link } from 'react-router';
import { workflowPath } from './queries.ts';

/** The way back up: the list, and the workflow when the view is one of its pages. */
export function Breadcrumbs({ environmentId, workflow }: { environmentId: string; workflow?: { workflowId: string; name: string } }) {
  return (
    <nav aria-label="breadcrumb">
      <ul>
        <li>
          <Link to={`/console/env/${environmentId}/workflows`}>Workflows</Link>
        </li>
        {workflow && (
          <li>
            <Link to={workflowPath(environmentId, workflow.workflowId)}>{workflow.name}</Link>
          </li>
        )}
      </ul>
    </nav>
  );
}
