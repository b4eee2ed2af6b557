import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { Breadcrumb } from '../../components/breadcrumb.tsx';
import { ErrorNote, QueryState } from '../../components/states.tsx';
import { useWorkflow, workflowPath, workflowsKey } from './queries.ts';
import { testPayload } from './test-payload.ts';
import type { TriggerResult, Workflow } from './types.ts';
import { consolePath } from '../../components/console-path.ts';
import './workflows.css';

// POST /v1/events/trigger for one subscriber, with a payload generated from the workflow's
// payload schema (else the example the API reads from its templates), edited as JSON.

export function TriggerTestEvent() {
  const { environmentId = '', workflowId = '' } = useParams();
  const workflow = useWorkflow(environmentId, workflowId);
  return (
    <section>
      <Breadcrumb
        listTo={consolePath(environmentId, 'workflows')}
        listLabel="Workflows"
        current={<Link to={workflowPath(environmentId, workflowId)}>{workflow.data?.name ?? workflowId}</Link>}
      />
      <h1>Trigger a test event</h1>
      <QueryState query={workflow} what="the workflow">
        {(data) => <TriggerForm key={data._id} environmentId={environmentId} workflow={data} />}
      </QueryState>
    </section>
  );
}

interface FieldErrors {
  subscriberId?: string;
  payload?: string;
}

/** Where a refused trigger's message belongs: the recipient's field, else the payload's. */
function fieldErrorsOf(error: ApiError): FieldErrors {
  const fields = Object.keys((error.body as { errors?: Record<string, unknown> } | null)?.errors ?? {});
  return fields.length > 0 && fields.every((field) => field === 'to' || field.startsWith('to.'))
    ? { subscriberId: error.message }
    : { payload: error.message };
}

function TriggerForm({ environmentId, workflow }: { environmentId: string; workflow: Workflow }) {
  const initialPayload = workflow.payloadSchema ? testPayload(workflow.payloadSchema) : (workflow.payloadExample ?? {});
  const [payloadText, setPayloadText] = useState(() => JSON.stringify(initialPayload, null, 2));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<TriggerResult>(environmentId, '/v1/events/trigger', { method: 'POST', body }),
    // The workflow's lastTriggeredAt moves.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowsKey(environmentId) }),
    onError: (error) => {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) setFieldErrors(fieldErrorsOf(error));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? '').trim();
    let payload: unknown;
    try {
      payload = JSON.parse(payloadText);
    } catch (error) {
      setFieldErrors({ payload: `Not valid JSON: ${(error as Error).message}` });
      return;
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      setFieldErrors({ payload: 'The payload must be a JSON object ({ … }).' });
      return;
    }
    setFieldErrors({});
    const to = {
      subscriberId: value('subscriberId'),
      ...(value('email') && { email: value('email') }),
      ...(value('firstName') && { firstName: value('firstName') }),
    };
    send.mutate({ name: workflow.workflowId, to, payload });
  };

  const result = send.data?.data;
  const unplaced = send.error && !(send.error instanceof ApiError && send.error.status >= 400 && send.error.status < 500);

  return (
    <form onSubmit={submit} noValidate>
      {!workflow.active && <p className="workflow-note">This workflow is inactive: activate it first, or the event is not processed.</p>}
      <label>
        Subscriber ID
        <input
          name="subscriberId"
          defaultValue="demo-user"
          required
          aria-invalid={fieldErrors.subscriberId ? true : undefined}
          aria-describedby={fieldErrors.subscriberId ? 'subscriber-error' : undefined}
        />
        {fieldErrors.subscriberId && <small id="subscriber-error">{fieldErrors.subscriberId}</small>}
      </label>
      <div className="grid">
        <label>
          Email (optional)
          <input name="email" type="email" autoComplete="off" />
        </label>
        <label>
          First name (optional)
          <input name="firstName" autoComplete="off" />
        </label>
      </div>
      <label>
        Payload
        <textarea
          name="payload"
          rows={Math.min(20, Math.max(4, payloadText.split('\n').length + 1))}
          spellCheck={false}
          className="code-input"
          value={payloadText}
          onChange={(event) => setPayloadText(event.target.value)}
          aria-invalid={fieldErrors.payload ? true : undefined}
          aria-describedby={fieldErrors.payload ? 'payload-error' : 'payload-help'}
        />
        {fieldErrors.payload ? (
          <small id="payload-error" role="alert">
            {fieldErrors.payload}
          </small>
        ) : (
          <small id="payload-help">
            {workflow.payloadSchema
              ? 'Generated from the payload schema.'
              : 'The workflow has no payload schema: generated from the variables its steps use.'}
          </small>
        )}
      </label>
      <button type="submit" disabled={send.isPending} aria-busy={send.isPending}>
        Send test event
      </button>
      {unplaced && <ErrorNote error={send.error} title="Could not send the event" />}
      {result && <TriggerOutcome environmentId={environmentId} result={result} />}
    </form>
  );
}

function TriggerOutcome({ environmentId, result }: { environmentId: string; result: TriggerResult['data'] }) {
  if (result.status !== 'processed' || !result.transactionId) {
    return <ErrorNote error={[result.status, ...(result.error ?? [])].join(': ')} title="The event was not processed" />;
  }
  return (
    <article role="status" className="done-note">
      <p>
        Sent. Transaction ID: <code>{result.transactionId}</code>
      </p>
      <Link to={`${consolePath(environmentId, 'activity')}?${new URLSearchParams({ transactionId: result.transactionId })}`}>
        See it in Activity
      </Link>
    </article>
  );
}
