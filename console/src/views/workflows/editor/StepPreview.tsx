import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../api/client.ts';
import { ErrorNote } from '../../../components/states.tsx';
import type { DraftStep } from './draft.ts';

// A channel step as it would be sent, rendered by the API's step preview operation
// (POST /v2/workflows/{id}/step/{stepId}/preview) with the values being edited (not yet saved)
// over the workflow's payload example: in-app as an inbox item, email as its HTML in a frame with
// no permissions (no script runs, nothing of the console is reachable), SMS, chat and push as text.

const PREVIEWED = new Set(['in_app', 'email', 'sms', 'chat', 'push']);

interface Preview {
  result: { type: string; preview?: Record<string, unknown> };
}

export const hasPreview = (step: DraftStep) => PREVIEWED.has(step.type);

export function StepPreview({ environmentId, workflowId, step }: { environmentId: string; workflowId: string; step: DraftStep }) {
  // The values settle for a moment before they are rendered: not one request per keystroke.
  const [values, setValues] = useState(step.values);
  useEffect(() => {
    const timer = setTimeout(() => setValues(step.values), 400);
    return () => clearTimeout(timer);
  }, [step.values]);
  const preview = useQuery({
    queryKey: ['workflows', environmentId, 'preview', workflowId, step.stepId, values],
    queryFn: ({ signal }) =>
      api<Preview>(environmentId, `/v2/workflows/${encodeURIComponent(workflowId)}/step/${encodeURIComponent(step.stepId!)}/preview`, {
        method: 'POST',
        body: { controlValues: values },
        signal,
      }),
    enabled: Boolean(step.stepId),
    placeholderData: keepPreviousData,
  });
  if (!step.stepId) return <p className="empty">Save the workflow to preview this step.</p>;
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
        // The inbox item's parts, as <Inbox /> lays them out; its HTML is the API's, sanitized.
        <article className="inbox-item-preview">
          {shown.subject !== undefined && <strong className="preview-subject">{text(shown.subject)}</strong>}
          <p className="preview-body">{text(shown.body)}</p>
        </article>
      ) : (
        <article className="text-preview">
          {shown.subject !== undefined && <strong className="preview-subject">{text(shown.subject)}</strong>}
          <p className="preview-body">{text(shown.body)}</p>
        </article>
      )}
    </section>
  );
}
