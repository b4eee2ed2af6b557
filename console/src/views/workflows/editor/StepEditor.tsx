import { Link } from 'react-router';
import { consolePath } from '../../../components/console-path.ts';
import { StepTypeName } from '../../../components/named.tsx';
import { ControlFields } from './ControlFields.tsx';
import type { DraftStep } from './draft.ts';
import { hasPreview, StepPreview } from './StepPreview.tsx';
import { ItemMoves } from './ItemMoves.tsx';

// One step in the editor: its name, its controls as a form, where it sits (move up or down,
// remove), and the preview of what it sends.

export interface StepEditorProps {
  environmentId: string;
  /** The saved workflow's id; undefined while it is being created. */
  workflowId: string | undefined;
  workflowName: string;
  /** The payload schema being edited (the last one typed that is JSON); null without one. */
  payloadSchema: Record<string, unknown> | null | undefined;
  /** What this step's text may name, from the draft as it is now (draft.ts stepVariablePaths). */
  variables: string[];
  step: DraftStep;
  position: number;
  count: number;
  errors: Record<string, string>;
  onChange: (step: DraftStep) => void;
  onMove: (offset: -1 | 1) => void;
  onRemove: () => void;
}

export function StepEditor(props: StepEditorProps) {
  const { environmentId, workflowId, workflowName, payloadSchema, variables, step, position, count, errors, onChange, onMove, onRemove } =
    props;
  const headingId = `${step.key}-heading`;
  const controlErrors = Object.fromEntries(
    Object.entries(errors)
      .filter(([field]) => field.startsWith('controlValues.'))
      .map(([field, message]) => [field.slice('controlValues.'.length).split('.')[0]!, message]),
  );
  // Control issues are shown at their fields; the others (no active integration for the channel) here.
  const otherIssues = Object.values(step.issues?.integration ?? {}).flat();
  const issueCount = Object.values(step.issues?.controls ?? {}).flat().length + otherIssues.length;
  return (
    <article aria-labelledby={headingId} className={issueCount > 0 ? 'workflow-step has-issues' : 'workflow-step'}>
      <header className="step-editor-head">
        <h3 id={headingId}>
          {position}. {step.name || 'Unnamed step'}
        </h3>
        <small>
          <StepTypeName type={step.type} />
          {step.stepId && (
            <>
              {' '}
              · <code>{step.stepId}</code>
            </>
          )}
        </small>
        <ItemMoves label={step.name} position={position} count={count} onMove={onMove} onRemove={onRemove} />
      </header>
      <label>
        Step name
        <input
          value={step.name}
          onChange={(event) => onChange({ ...step, name: event.target.value })}
          aria-invalid={errors.name ? true : undefined}
          required
        />
        {errors.name && <small className="field-error">{errors.name}</small>}
      </label>
      {otherIssues.length > 0 && (
        <ul aria-label={`Delivery issues of ${step.name}`} className="step-issues">
          {otherIssues.map((issue, i) => (
            <li key={i}>
              {issue.message}: <Link to={consolePath(environmentId, 'integrations')}>set one up in Integrations</Link>.
            </li>
          ))}
        </ul>
      )}
      <div className={hasPreview(step) ? 'step-editor-body with-preview' : 'step-editor-body'}>
        <ControlFields
          environmentId={environmentId}
          step={step}
          variables={variables}
          errors={controlErrors}
          onChange={(values) => onChange({ ...step, values })}
        />
        {hasPreview(step) && (
          <div>
            <h4>Preview</h4>
            <StepPreview
              environmentId={environmentId}
              workflowId={workflowId}
              workflowName={workflowName}
              payloadSchema={payloadSchema}
              step={step}
            />
          </div>
        )}
      </div>
    </article>
  );
}
