import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { schemaExample } from '../../../../../lib/workflows/payload-example.ts';
import { api } from '../../../api/client.ts';
import { ErrorNote } from '../../../components/states.tsx';
import type { DraftStep } from './draft.ts';
import type { InboxItem } from './InboxItemPreview.tsx';

// A channel step as it would be sent, rendered by the API with the values being edited (not yet
// saved) over the workflow's payload example: a saved step by the step preview operation
// (POST /v2/workflows/{id}/step/{stepId}/preview, sent the example of the payload schema being
// edited, so the preview follows the schema before it is saved), a step not saved yet (a new workflow's, or one
// just added) by the draft step preview (POST /v2/workflows/steps/preview) from its kind, values
// and the payload schema being edited. In-app is drawn by @novu/react's own <Inbox /> item, email
// as its HTML in a frame with no permissions (no script runs, nothing of the console is
// reachable), SMS, chat and push as text.

const PREVIEWED = new Set(['in_app', 'email', 'sms', 'chat', 'push']);

// @novu/react is large: loaded with the first in-app preview (the chunk the subscriber's inbox uses too).
const InboxItemPreview = lazy(() => import('./InboxItemPreview.tsx'));

interface Preview {
  result: { type: string; preview?: Record<string, unknown> };
}

export const hasPreview = (step: DraftStep) => PREVIEWED.has(step.type);

export interface StepPreviewProps {
  environmentId: string;
  /** The saved workflow's id; undefined while it is being created. */
  workflowId: string | undefined;
  workflowName: string;
  /** The payload schema being edited (the last one typed that is JSON); null without one. */
  payloadSchema: Record<string, unknown> | null | undefined;
  step: DraftStep;
}

/** The request that renders the step: the saved step's own preview, else the draft's. */
function previewRequest({ workflowId, payloadSchema, step }: StepPreviewProps, values: Record<string, unknown>) {
  if (workflowId && step.stepId)
    return {
      path: `/v2/workflows/${encodeURIComponent(workflowId)}/step/${encodeURIComponent(step.stepId)}/preview`,
      body: {
        controlValues: values,
        // Without a schema being edited, the API's own example (from the variables the saved steps use).
        ...(payloadSchema && { previewPayload: { payload: payloadExampleOf(payloadSchema) } }),
      },
    };
  return { path: '/v2/workflows/steps/preview', body: { type: step.type, controlValues: values, payloadSchema: payloadSchema ?? null } };
}

/** The example the API would make of this schema (lib/workflows/payload-example.ts), as an object. */
function payloadExampleOf(schema: Record<string, unknown>): Record<string, unknown> {
  const example = schemaExample(schema, 'payload');
  return example && typeof example === 'object' && !Array.isArray(example) ? (example as Record<string, unknown>) : {};
}

export function StepPreview(props: StepPreviewProps) {
  const { environmentId, workflowName, step } = props;
  // The values settle for a moment before they are rendered: not one request per keystroke.
  const [request, setRequest] = useState(() => previewRequest(props, step.values));
  const next = previewRequest(props, step.values);
  const nextKey = JSON.stringify(next);
  useEffect(() => {
    const timer = setTimeout(() => setRequest(JSON.parse(nextKey) as typeof next), 400);
    return () => clearTimeout(timer);
  }, [nextKey]);
  const preview = useQuery({
    queryKey: ['workflows', environmentId, 'preview', request],
    queryFn: ({ signal }) => api<Preview>(environmentId, request.path, { method: 'POST', body: request.body, signal }),
    placeholderData: keepPreviousData,
  });
  if (preview.error) return <ErrorNote error={preview.error} title="Could not preview" />;
  const shown = preview.data?.result.preview;
  if (!preview.data) return <p aria-busy="true">Rendering…</p>;
  if (!shown) return <p className="empty">This content cannot be rendered yet: check the issues above.</p>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return (
    <section aria-label={`Preview of ${step.name}`} className="step-preview">
      {step.type === 'email' ? (
        <>
          <p>
            <strong>Subject:</strong> <span className="preview-subject">{text(shown.subject)}</span>
          </p>
          <iframe title={`Email preview of ${step.name}`} sandbox="" srcDoc={text(shown.body)} className="email-preview" />
        </>
      ) : step.type === 'in_app' ? (
        <Suspense fallback={<p aria-busy="true">Loading the inbox…</p>}>
          <InboxItemPreview item={shown as unknown as InboxItem} workflowName={workflowName || 'Workflow'} />
        </Suspense>
      ) : (
        <article className="text-preview">
          {shown.subject !== undefined && <strong className="preview-subject">{text(shown.subject)}</strong>}
          <p className="preview-body">{text(shown.body)}</p>
        </article>
      )}
    </section>
  );
}
