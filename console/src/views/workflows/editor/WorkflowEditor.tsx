import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useBlocker, useNavigate, useParams } from 'react-router';
import { api } from '../../../api/client.ts';
import { fieldMessages } from '../../../components/api-field-error.tsx';
import { Breadcrumb } from '../../../components/breadcrumb.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { consolePath } from '../../../components/console-path.ts';
import { stepTypeLabel } from '../../../components/names.ts';
import { ErrorNote, QueryState } from '../../../components/states.tsx';
import { useWorkflow, workflowPath, workflowsKey } from '../queries.ts';
import type { Workflow } from '../types.ts';
import {
  bodyOf,
  draftOf,
  DraftError,
  emptyDraft,
  newStep,
  parsedSchema,
  STEP_TYPES,
  stepVariablePaths,
  type Draft,
  type DraftStep,
  type StepType,
} from './draft.ts';
import { LeaveDialog } from './LeaveDialog.tsx';
import { StepEditor } from './StepEditor.tsx';
import '../workflows.css';
import './editor.css';
import { readAgain } from '../../../api/read-again.ts';

// Creating (`workflows/new`) and editing (`workflows/:workflowId/edit`) a workflow: its facts,
// its steps (added, removed, reordered) and their controls, saved with the v2 workflow API only
// (POST /v2/workflows, PUT /v2/workflows/{id}). What the API refuses (422) is shown at the field
// it names; what it reports of the saved workflow (each step's issues) at the control concerned.
// Leaving with unsaved changes asks first, inside the console and when the tab closes.

export function NewWorkflow() {
  const { environmentId = '' } = useParams();
  return (
    <section>
      <Breadcrumb listTo={consolePath(environmentId, 'workflows')} listLabel="Workflows" current="New workflow" />
      <h1>New workflow</h1>
      <WorkflowForm environmentId={environmentId} initial={emptyDraft()} />
    </section>
  );
}

export function EditWorkflow() {
  const { environmentId = '', workflowId = '' } = useParams();
  const workflow = useWorkflow(environmentId, workflowId);
  return (
    <section>
      <Breadcrumb
        listTo={consolePath(environmentId, 'workflows')}
        listLabel="Workflows"
        current={<Link to={workflowPath(environmentId, workflowId)}>{workflow.data?.name ?? workflowId}</Link>}
      />
      <h1>Edit workflow</h1>
      <QueryState query={workflow} what="the workflow">
        {(data) =>
          data.origin === 'external' ? (
            <ErrorNote error={CODE_FIRST_NOTE} />
          ) : (
            <WorkflowForm key={data._id} environmentId={environmentId} workflow={data} initial={draftOf(data)} />
          )
        }
      </QueryState>
    </section>
  );
}

const CODE_FIRST_NOTE =
  "A code-first workflow changes with your app's code (npx novu sync); only its control values are set here, on its page.";

/** The 422 messages by place: the workflow's own fields, and each step's (by its index in the body sent). */
function splitErrors(messages: Record<string, string>) {
  const workflow: Record<string, string> = {};
  const steps: Record<number, Record<string, string>> = {};
  for (const [field, message] of Object.entries(messages)) {
    const step = /^steps\.(\d+)\.(.+)$/.exec(field);
    if (step) (steps[Number(step[1])] ??= {})[step[2]!] = message;
    else workflow[field] = message;
  }
  return { workflow, steps };
}

function WorkflowForm({ environmentId, workflow, initial }: { environmentId: string; workflow?: Workflow; initial: Draft }) {
  const creating = !workflow;
  const [draft, setDraft] = useState(initial);
  const [dirty, setDirtyState] = useState(false);
  const [localError, setLocalError] = useState<DraftError>();
  const [kind, setKind] = useState<StepType>('in_app');
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  // Read by the blocker at the moment of a navigation (a save navigates right after clearing it,
  // before React has rendered the cleared state): kept beside the state by the one setter.
  const dirtyRef = useRef(dirty);
  const setDirty = (value: boolean) => {
    dirtyRef.current = value;
    setDirtyState(value);
  };
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      creating
        ? api<Workflow>(environmentId, '/v2/workflows', { method: 'POST', body })
        : api<Workflow>(environmentId, `/v2/workflows/${encodeURIComponent(workflow.workflowId)}`, { method: 'PUT', body }),
    onSuccess: async (saved) => {
      setDirty(false);
      queryClient.setQueryData([...workflowsKey(environmentId), 'detail', saved.workflowId], saved);
      await readAgain(queryClient, [...workflowsKey(environmentId), 'list']);
      if (creating) await navigate(`${workflowPath(environmentId, saved.workflowId)}/edit`, { replace: true });
      else setDraft(draftOf(saved));
    },
  });
  const errors = splitErrors(fieldMessages(save.error));
  const workflowError = (field: string) => (localError?.field === field ? localError.message : errors.workflow[field]);

  const change = (next: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...next }));
    setDirty(true);
  };
  const changeSteps = (update: (steps: DraftStep[]) => DraftStep[]) => {
    setDraft((current) => ({ ...current, steps: update(current.steps) }));
    setDirty(true);
  };
  // The payload schema being typed, once it is JSON: what steps are previewed with, and what
  // their text may name. While it is not JSON, the last one that was.
  const typedSchema = useMemo(() => parsedSchema(draft.payloadSchema), [draft.payloadSchema]);
  // Kept in state, adjusted while rendering (React's pattern for state that follows a value).
  const [lastSchema, setLastSchema] = useState(typedSchema);
  if (typedSchema !== undefined && typedSchema !== lastSchema) setLastSchema(typedSchema);
  const payloadSchema = typedSchema === undefined ? lastSchema : typedSchema;
  // Each step's variables as the API will report them once saved, from this draft: the schema being
  // typed, the steps above it. Derived on every change, so a field added to the schema is offered at once.
  const variables = useMemo(
    () => draft.steps.map((_, index) => stepVariablePaths(draft.steps, index, payloadSchema ?? null, workflow?.origin)),
    [draft.steps, payloadSchema, workflow?.origin],
  );

  // Switching a saved workflow off stops every trigger of it: a save that does so asks first.
  const [confirming, setConfirming] = useState<Record<string, unknown>>();
  const deactivates = !creating && workflow.active && !draft.active;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      const body = bodyOf(draft, creating);
      setLocalError(undefined);
      if (deactivates) setConfirming(body);
      else save.mutate(body);
    } catch (error) {
      if (error instanceof DraftError) setLocalError(error);
      else throw error;
    }
  };

  const field = (name: keyof Draft & string, label: string, input: React.ReactNode, help?: string) => {
    const problem = workflowError(name);
    return (
      <label>
        {label}
        {input}
        {problem ? (
          <small id={`workflow-${name}-problem`} className="field-error">
            {problem}
          </small>
        ) : (
          help && <small>{help}</small>
        )}
      </label>
    );
  };
  const invalid = (name: string) =>
    workflowError(name) ? { 'aria-invalid': true as const, 'aria-describedby': `workflow-${name}-problem` } : {};
  const otherProblems = Object.entries(errors.workflow).filter(
    ([name]) => !['name', 'workflowId', 'description', 'tags', 'payloadSchema'].includes(name),
  );

  return (
    <form onSubmit={submit} className="workflow-editor" noValidate>
      <div className="grid">
        {field(
          'name',
          'Name',
          <input value={draft.name} onChange={(event) => change({ name: event.target.value })} required {...invalid('name')} />,
        )}
        {field(
          'workflowId',
          'Identifier',
          <input
            value={draft.workflowId}
            onChange={(event) => change({ workflowId: event.target.value })}
            readOnly={!creating}
            placeholder="from the name"
            {...invalid('workflowId')}
          />,
          creating ? 'Triggers name the workflow by it; it cannot change later.' : 'Triggers name the workflow by it.',
        )}
      </div>
      {field(
        'description',
        'Description',
        <input value={draft.description} onChange={(event) => change({ description: event.target.value })} {...invalid('description')} />,
      )}
      {field(
        'tags',
        'Tags',
        <input
          value={draft.tags}
          onChange={(event) => change({ tags: event.target.value })}
          placeholder="orders, billing"
          {...invalid('tags')}
        />,
        'Separated by commas.',
      )}
      {field(
        'payloadSchema',
        'Payload schema (JSON Schema)',
        <textarea
          className="code-input"
          rows={Math.min(14, Math.max(3, draft.payloadSchema.split('\n').length + 1))}
          spellCheck={false}
          value={draft.payloadSchema}
          onChange={(event) => change({ payloadSchema: event.target.value })}
          placeholder='{ "type": "object", "properties": { "orderId": { "type": "string" } } }'
          {...invalid('payloadSchema')}
        />,
        'Its fields are offered as variables ({{payload.…}}) in the steps, and give the test event its payload.',
      )}

      <label>
        <input type="checkbox" role="switch" checked={draft.active} onChange={(event) => change({ active: event.target.checked })} />
        Active: triggers of it are sent
      </label>

      <h2>Steps</h2>
      {draft.steps.length === 0 && <p className="empty">No steps yet: add the first one below.</p>}
      <ol className="workflow-steps">
        {draft.steps.map((step, index) => (
          <li key={step.key}>
            <StepEditor
              environmentId={environmentId}
              workflowId={workflow?.workflowId}
              workflowName={draft.name}
              payloadSchema={payloadSchema}
              variables={variables[index] ?? []}
              step={step}
              position={index + 1}
              count={draft.steps.length}
              errors={errors.steps[index] ?? {}}
              onChange={(next) => changeSteps((steps) => steps.map((s) => (s.key === step.key ? next : s)))}
              onMove={(offset) =>
                changeSteps((steps) => {
                  const copy = [...steps];
                  const [moved] = copy.splice(index, 1);
                  copy.splice(index + offset, 0, moved!);
                  return copy;
                })
              }
              onRemove={() => changeSteps((steps) => steps.filter((s) => s.key !== step.key))}
            />
          </li>
        ))}
      </ol>
      <fieldset role="group" className="add-step">
        <select aria-label="Kind of step" value={kind} onChange={(event) => setKind(event.target.value as StepType)}>
          {STEP_TYPES.map((type) => (
            <option key={type} value={type}>
              {stepTypeLabel(type)}
            </option>
          ))}
        </select>
        <button type="button" className="secondary" onClick={() => changeSteps((steps) => [...steps, newStep(kind)])}>
          Add step
        </button>
      </fieldset>

      {otherProblems.length > 0 && (
        <ul className="field-error">
          {otherProblems.map(([name, message]) => (
            <li key={name}>
              {name}: {message}
            </li>
          ))}
        </ul>
      )}
      {save.error && Object.keys(fieldMessages(save.error)).length === 0 && <ErrorNote error={save.error} title="Could not save" />}
      <div className="button-row editor-actions">
        <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
          {creating ? 'Create workflow' : 'Save changes'}
        </button>
        {!creating && (
          <Link role="button" className="secondary outline" to={`${workflowPath(environmentId, workflow.workflowId)}/trigger`}>
            Send a test
          </Link>
        )}
        {save.isSuccess && !dirty && (
          <span role="status" className="saved-note">
            Saved.
          </span>
        )}
        {dirty && <span className="unsaved-note">Unsaved changes</span>}
      </div>
      <LeaveDialog blocker={blocker} />
      <ConfirmDialog
        open={confirming !== undefined}
        title={`Deactivate ${workflow?.name ?? draft.name}?`}
        confirmLabel="Save and deactivate"
        onConfirm={() => {
          if (confirming) save.mutate(confirming);
          setConfirming(undefined);
        }}
        onCancel={() => setConfirming(undefined)}
      >
        <p>Its triggers are accepted but nothing is sent until it is activated again. The other changes are saved with it.</p>
      </ConfirmDialog>
    </form>
  );
}
