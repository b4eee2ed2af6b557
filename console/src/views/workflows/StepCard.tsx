import { StepTypeName } from '../../components/named.tsx';
import { RawJson } from '../../components/raw-json.tsx';
import { ControlSchemaFields } from './ControlSchemaFields.tsx';
import { ControlValuesForm } from './ControlValuesForm.tsx';
import { issuesOf } from './issues.ts';
import type { WorkflowStep } from './types.ts';

// One step of a workflow: its names, its control values shown as a person reads them (what the
// message says, or how long the step waits), its issues, and the raw values on demand.

const CONTENT_STEPS = new Set(['in_app', 'email', 'sms', 'chat', 'push']);
const TIMED_STEPS = new Set(['delay', 'digest', 'throttle']);

const text = (value: unknown): string | undefined =>
  value === undefined || value === null || value === '' ? undefined : typeof value === 'string' ? value : JSON.stringify(value);

/** The control values worth reading at a glance, by label; the rest are in the raw JSON. */
function readableControls(step: WorkflowStep): [string, string | undefined][] {
  const v = step.controls.values;
  if (CONTENT_STEPS.has(step.type))
    return [
      ['Subject', text(v.subject)],
      ['Body', text(v.body)],
    ];
  if (!TIMED_STEPS.has(step.type)) return [];
  const rows: [string, string | undefined][] =
    v.type === 'timed'
      ? [['Schedule (cron)', text(v.cron)]]
      : [['Wait', v.amount === undefined ? undefined : `${text(v.amount)} ${text(v.unit) ?? ''}`.trim()]];
  if (step.type === 'digest' && v.digestKey) rows.push(['Digest key', text(v.digestKey)]);
  if (step.type === 'throttle' && v.threshold !== undefined) rows.push(['Threshold', text(v.threshold)]);
  if (step.type === 'throttle' && v.dynamicKey) rows.push(['Dynamic key', text(v.dynamicKey)]);
  return rows;
}

export function StepCard({ environmentId, step, position }: { environmentId: string; step: WorkflowStep; position: number }) {
  const issues = issuesOf(step.issues);
  // A code-first step's content comes from the app's code: its controls are what can be set here.
  if (step.origin === 'external') return <CodeFirstStep environmentId={environmentId} step={step} position={position} />;
  const headingId = `step-${step._id}`;
  return (
    <article aria-labelledby={headingId} className={issues.length > 0 ? 'workflow-step has-issues' : 'workflow-step'}>
      <header>
        <h3 id={headingId}>
          {position}. {step.name}
        </h3>
        <small>
          <code>{step.stepId}</code> · <StepTypeName type={step.type} />
        </small>
      </header>
      <dl className="step-controls">
        {readableControls(step).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value === undefined ? <em>not set</em> : <pre>{value}</pre>}</dd>
          </div>
        ))}
      </dl>
      {issues.length > 0 && (
        <ul aria-label={`Issues of ${step.name}`} className="step-issues">
          {issues.map((issue, i) => (
            <li key={i}>
              <strong>{issue.field}</strong>: {issue.message}
            </li>
          ))}
        </ul>
      )}
      <RawJson value={step.controls.values} summary="Control values (JSON)" />
    </article>
  );
}

function CodeFirstStep({ environmentId, step, position }: { environmentId: string; step: WorkflowStep; position: number }) {
  const headingId = `step-${step._id}`;
  return (
    <article aria-labelledby={headingId} className="workflow-step">
      <header>
        <h3 id={headingId}>
          {position}. {step.stepId}
        </h3>
        <small>
          <StepTypeName type={step.type} /> · <span className="code-first-mark">code-first</span>
        </small>
      </header>
      <h4>Controls (from the code)</h4>
      <ControlSchemaFields schema={step.controls.dataSchema} label={`Controls of ${step.stepId}`} />
      <RawJson value={step.controls.dataSchema ?? {}} summary="Control schema (JSON)" />
      <ControlValuesForm environmentId={environmentId} step={step} />
    </article>
  );
}
