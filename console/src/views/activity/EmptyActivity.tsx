import { Link } from 'react-router';
import { consolePath } from '../../components/console-path.ts';
import { Empty } from '../../components/states.tsx';
import { useWorkflowList, workflowPath } from '../workflows/queries.ts';

// What a newcomer sees before anything was sent: the console's own way to send something (a
// workflow's test trigger), not an API call to write first. The most recently changed workflow
// (the demo one on a fresh `npm start`) is offered by name.

export function EmptyActivity({ environmentId }: { environmentId: string }) {
  const workflows = useWorkflowList(environmentId, '', 1);
  const first = workflows.data?.workflows[0];
  return (
    <div className="empty-activity">
      <Empty>No notifications yet: send one and follow it here, step by step.</Empty>
      {first ? (
        <p>
          <Link role="button" to={`${workflowPath(environmentId, first.workflowId)}/trigger`}>
            Trigger a test event
          </Link>{' '}
          of <Link to={workflowPath(environmentId, first.workflowId)}>{first.name}</Link>, or{' '}
          <Link to={consolePath(environmentId, 'workflows')}>pick another workflow</Link>.
        </p>
      ) : (
        workflows.data && (
          <p>
            <Link role="button" to={consolePath(environmentId, 'workflows', 'new')}>
              Create a workflow
            </Link>{' '}
            and send it a test event from its page.
          </p>
        )
      )}
    </div>
  );
}
