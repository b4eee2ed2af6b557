import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { Breadcrumb } from '../../components/breadcrumb.tsx';
import { ErrorNote, QueryState } from '../../components/states.tsx';
import { useWorkflow, workflowPath, workflowsKey } from './queries.ts';
import { contactNeeds, fetchRecipientProfile, testEmailFor, useRecipientProfile, type ContactNeed } from './recipient.ts';
import { testPayload } from './test-payload.ts';
import type { TriggerResult, Workflow } from './types.ts';
import { consolePath } from '../../components/console-path.ts';
import './workflows.css';
import { readAgain } from '../../api/read-again.ts';

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
  email?: string;
  phone?: string;
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
  // The recipient: what the steps need of them is filled in, or said missing, before sending.
  const [subscriberId, setSubscriberId] = useState('demo-user');
  const [typedEmail, setTypedEmail] = useState<string>();
  const needs = contactNeeds(workflow);
  const need = (field: ContactNeed['field']) => needs.find((n) => n.field === field);
  const profile = useRecipientProfile(environmentId, subscriberId.trim(), needs.length > 0);
  const profileEmail = profile.data?.email ?? undefined;
  const filledEmail = need('email') && profile.data !== undefined && !profileEmail ? testEmailFor(subscriberId.trim()) : '';
  const email = typedEmail ?? filledEmail;
  const send = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<TriggerResult>(environmentId, '/v1/events/trigger', { method: 'POST', body }),
    // The workflow's lastTriggeredAt moves.
    onSuccess: () => readAgain(queryClient, workflowsKey(environmentId)),
    onError: (error) => {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) setFieldErrors(fieldErrorsOf(error));
    },
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
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
    const missing: FieldErrors = {};
    // Sent as the form shows it once the profile is known: an email filled in for a subscriber
    // without one is sent even when the click came before the profile was read (not when a
    // person cleared the field).
    let filled: string | undefined;
    if (value('subscriberId') && ((need('email') && !value('email')) || (need('phone') && !value('phone')))) {
      const known = await fetchRecipientProfile(queryClient, environmentId, value('subscriberId')).catch(() => null);
      if (need('email') && !value('email') && !known?.email && typedEmail === undefined) {
        filled = testEmailFor(value('subscriberId'));
        setTypedEmail(filled);
      }
      for (const { field, stepName } of needs) {
        if (!value(field) && !known?.[field] && !(field === 'email' && filled))
          missing[field] =
            `The step “${stepName}” sends to ${field === 'email' ? 'an email address' : 'a phone number'}, ` +
            'and this subscriber has none: give one, or that step is canceled.';
      }
    }
    setFieldErrors(missing);
    if (Object.keys(missing).length > 0) return;
    const to = {
      subscriberId: value('subscriberId'),
      ...((value('email') || filled) && { email: value('email') || filled }),
      ...(value('phone') && { phone: value('phone') }),
      ...(value('firstName') && { firstName: value('firstName') }),
    };
    send.mutate({ name: workflow.workflowId, to, payload });
  };

  const result = send.data?.data;
  const unplaced = send.error && !(send.error instanceof ApiError && send.error.status >= 400 && send.error.status < 500);

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {!workflow.active && <p className="workflow-note">This workflow is inactive: activate it first, or the event is not processed.</p>}
      <label>
        Subscriber ID
        <input
          name="subscriberId"
          value={subscriberId}
          onChange={(event) => setSubscriberId(event.target.value)}
          required
          aria-invalid={fieldErrors.subscriberId ? true : undefined}
          aria-describedby={fieldErrors.subscriberId ? 'subscriber-error' : undefined}
        />
        {fieldErrors.subscriberId && <small id="subscriber-error">{fieldErrors.subscriberId}</small>}
      </label>
      <div className="grid">
        <label>
          {need('email') ? 'Email' : 'Email (optional)'}
          <input
            name="email"
            type="email"
            autoComplete="off"
            value={email}
            placeholder={profileEmail}
            onChange={(event) => setTypedEmail(event.target.value)}
            aria-invalid={fieldErrors.email ? true : undefined}
            aria-describedby={need('email') ? 'email-help' : undefined}
          />
          {need('email') && (
            <small id="email-help" role={fieldErrors.email ? 'alert' : undefined}>
              {fieldErrors.email ??
                (profileEmail && !email
                  ? `Empty: the email goes to ${profileEmail}, from the subscriber's profile.`
                  : email && email === filledEmail
                    ? `Filled in: the step “${need('email')!.stepName}” needs an address and this subscriber has none yet.`
                    : `The step “${need('email')!.stepName}” sends to it.`)}
            </small>
          )}
        </label>
        {need('phone') && (
          <label>
            Phone
            <input
              name="phone"
              type="tel"
              autoComplete="off"
              placeholder={profile.data?.phone ?? undefined}
              aria-invalid={fieldErrors.phone ? true : undefined}
              aria-describedby="phone-help"
            />
            <small id="phone-help" role={fieldErrors.phone ? 'alert' : undefined}>
              {fieldErrors.phone ??
                `The step “${need('phone')!.stepName}” sends to it${profile.data?.phone ? '; empty: the profile’s' : ''}.`}
            </small>
          </label>
        )}
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
