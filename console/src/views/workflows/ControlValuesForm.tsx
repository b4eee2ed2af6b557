import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client.ts';
import { fieldMessages, fieldProblem } from '../../components/api-field-error.tsx';
import { ErrorNote } from '../../components/states.tsx';
import { workflowsKey } from './queries.ts';
import type { WorkflowStep } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

// The control values of a code-first step, as JSON: PUT /v1/bridge/controls/{workflowId}/{stepId}
// checks them against the step's control schema and stores them; the next run of the step sends
// them to the app (values left out take the code's defaults).

export function ControlValuesForm({ environmentId, step }: { environmentId: string; step: WorkflowStep }) {
  const [text, setText] = useState(() => JSON.stringify(step.controls.values, null, 2));
  const [parseError, setParseError] = useState<string>();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (variables: Record<string, unknown>) =>
      api(environmentId, `/v1/bridge/controls/${encodeURIComponent(step.workflowId)}/${encodeURIComponent(step.stepId)}`, {
        method: 'PUT',
        body: { variables },
      }),
    onSuccess: () => readAgain(queryClient, workflowsKey(environmentId)),
  });
  const id = `controls-${step._id}`;
  // A 422 names each refused control as `variables.<path>`: shown under the editor, by control.
  const refused = Object.entries(fieldMessages(save.error)).map(
    ([field, message]) => `${field.replace(/^variables\.?/, '') || 'values'}: ${message}`,
  );
  const problem = fieldProblem(id, parseError ?? (refused.length > 0 ? refused.join('; ') : undefined));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let values: unknown;
    try {
      values = JSON.parse(text || '{}');
    } catch (error) {
      save.reset();
      setParseError(`Not JSON: ${(error as Error).message}`);
      return;
    }
    if (values === null || typeof values !== 'object' || Array.isArray(values)) {
      save.reset();
      setParseError('The control values must be a JSON object');
      return;
    }
    setParseError(undefined);
    save.mutate(values as Record<string, unknown>);
  };

  return (
    <form onSubmit={submit} className="step-control-values">
      <label htmlFor={id}>Control values (JSON)</label>
      <textarea
        id={id}
        rows={4}
        value={text}
        onChange={(event) => setText(event.target.value)}
        spellCheck={false}
        {...problem.inputProps}
      />
      {problem.note}
      <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
        Save control values
      </button>
      {save.isSuccess && <p role="status">Saved: the next run of this step uses them.</p>}
      {save.error && refused.length === 0 && <ErrorNote error={save.error} title="Could not save the control values" />}
    </form>
  );
}
