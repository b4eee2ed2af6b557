import { Link, useParams } from 'react-router';
import { Breadcrumb } from '../../components/breadcrumb.tsx';
import { RawJson } from '../../components/raw-json.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { ActiveToggle } from './ActiveToggle.tsx';
import { DeleteWorkflow } from './DeleteWorkflow.tsx';
import { workflowIssues } from './issues.ts';
import { PreferencesSummary } from './PreferencesSummary.tsx';
import { useWorkflow } from './queries.ts';
import { StepCard } from './StepCard.tsx';
import { SyncForm } from './SyncForm.tsx';
import type { Workflow } from './types.ts';
import './workflows.css';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { consolePath } from '../../components/console-path.ts';

// GET /v2/workflows/{id}: the workflow's steps in order with their controls and issues, its
// payload schema and preferences, and what can be done with it (switch on/off, sync, trigger).

export function WorkflowDetail() {
  const { environmentId = '', workflowId = '' } = useParams();
  const workflow = useWorkflow(environmentId, workflowId);
  return (
    <section>
      <Breadcrumb listTo={consolePath(environmentId, 'workflows')} listLabel="Workflows" current={workflow.data?.name} />
      <QueryState query={workflow} what="the workflow">
        {(data) => <WorkflowView environmentId={environmentId} workflow={data} />}
      </QueryState>
    </section>
  );
}

function WorkflowView({ environmentId, workflow }: { environmentId: string; workflow: Workflow }) {
  const issues = workflowIssues(workflow.steps);
  return (
    <>
      <hgroup>
        <h1>{workflow.name}</h1>
        <p>
          <code>{workflow.workflowId}</code> <StatusBadge status={workflow.active ? 'active' : 'inactive'} /> · updated{' '}
          <LocalDateTime iso={workflow.updatedAt} />
          {workflow.lastTriggeredAt && (
            <>
              {' '}
              · last triggered <LocalDateTime iso={workflow.lastTriggeredAt} />
            </>
          )}
        </p>
      </hgroup>
      {workflow.origin === 'external' && (
        <p className="code-first-note">
          <small className="code-first-mark">code-first</small> Defined in your app's code and synced with <code>npx novu sync</code>: its
          steps and schemas change with the code. Each step's content comes from your app when it runs; the control values set below are
          sent with it.
        </p>
      )}
      {workflow.description && <p>{workflow.description}</p>}
      {workflow.tags.length > 0 && <p>Tags: {workflow.tags.join(', ')}</p>}

      {/* The everyday actions first and filled; the ones that stop, remove or reach another
          environment outlined, and each asks before it acts. */}
      <div className="button-row">
        <Link role="button" to="trigger">
          Trigger a test event
        </Link>
        {workflow.origin !== 'external' && (
          <Link role="button" className="secondary" to="edit">
            Edit
          </Link>
        )}
        <ActiveToggle environmentId={environmentId} workflow={workflow} />
        <DeleteWorkflow environmentId={environmentId} workflow={workflow} />
      </div>
      {/* A code-first workflow reaches another environment by syncing that environment from the code. */}
      {workflow.origin !== 'external' && <SyncForm environmentId={environmentId} workflow={workflow} />}

      <h2>Issues</h2>
      {issues.length === 0 ? (
        <Empty>No issues: every step has what it needs to send.</Empty>
      ) : (
        <>
          <p>
            {issues.length} {issues.length === 1 ? 'issue' : 'issues'}:{' '}
            {workflow.active ? 'steps with issues can fail when the workflow runs.' : 'fix them before activating.'}
          </p>
          <ul className="step-issues">
            {issues.map(({ step, issue }, i) => (
              <li key={i}>
                <a href={`#step-${step._id}`}>{step.name}</a> · <strong>{issue.field}</strong>: {issue.message}
              </li>
            ))}
          </ul>
        </>
      )}

      <h2>Steps</h2>
      {workflow.steps.length === 0 ? (
        <Empty>
          No steps yet: <Link to="edit">add them</Link>.
        </Empty>
      ) : (
        <ol className="workflow-steps">
          {workflow.steps.map((step, index) => (
            <li key={step._id}>
              <StepCard environmentId={environmentId} step={step} position={index + 1} />
            </li>
          ))}
        </ol>
      )}

      <h2>Payload schema</h2>
      {workflow.payloadSchema ? (
        <>
          <p>
            {workflow.origin === 'external'
              ? 'From the code: your app checks each payload against it when a step runs.'
              : workflow.validatePayload
                ? 'Triggers are checked against it.'
                : 'Not enforced: triggers are not checked against it.'}
          </p>
          <pre className="workflow-schema">
            <code>{JSON.stringify(workflow.payloadSchema, null, 2)}</code>
          </pre>
        </>
      ) : (
        <Empty>No payload schema: any payload is accepted.</Empty>
      )}

      <h2>Preferences</h2>
      <PreferencesSummary preferences={workflow.preferences} />

      <RawJson value={workflow} summary="The whole workflow (JSON)" />
    </>
  );
}
