import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { fieldMessage, fieldProblem } from '../../components/api-field-error.tsx';
import { ConfirmButton } from '../../components/confirm-dialog.tsx';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { ErrorNote, QueryState } from '../../components/states.tsx';
import { groupPath, resourceUrl, type Translation } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

interface EditorProps {
  environmentId: string;
  resourceType: string;
  resourceId: string;
  locale: string;
}

/** One locale's content as JSON text: read, edited, saved whole (the API replaces it), deleted. */
export function LocaleEditor(props: EditorProps) {
  const { environmentId, resourceType, resourceId, locale } = props;
  const translation = useQuery({
    queryKey: ['translations', environmentId, 'locale', resourceType, resourceId, locale],
    // A locale without content yet opens empty: saving it creates it.
    queryFn: ({ signal }) =>
      api<{ data: Translation }>(environmentId, `${resourceUrl(resourceType, resourceId)}/${encodeURIComponent(locale)}`, { signal }).then(
        (body) => body.data,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        },
      ),
  });
  return (
    <QueryState query={translation} what={`the ${locale} texts`}>
      {(data) => <EditorForm {...props} saved={data} />}
    </QueryState>
  );
}

/** The JSON text, if it is a JSON object; else why not. */
function parseContent(text: string): { content: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'The content must be a JSON object of keys to texts, like {"greeting": "Hello"}.' };
  return { content: value as Record<string, unknown> };
}

function EditorForm({ environmentId, resourceType, resourceId, locale, saved }: EditorProps & { saved: Translation | null }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [text, setText] = useState(() => JSON.stringify(saved?.content ?? {}, null, 2));
  const [problem, setProblem] = useState<string>();
  const invalidate = () => readAgain(queryClient, ['translations', environmentId]);

  const save = useMutation({
    mutationFn: (content: Record<string, unknown>) =>
      api<{ data: Translation }>(environmentId, '/v2/translations', {
        method: 'POST',
        body: { resourceType, resourceId, locale, content },
      }),
    // The stored content, laid out again: what is in the field is what the API now holds.
    onSuccess: async (body) => {
      setText(JSON.stringify(body.data.content, null, 2));
      await invalidate();
    },
  });
  const contentNote = fieldProblem('translation-content', problem ?? fieldMessage(save.error, 'content'));
  const otherField =
    fieldMessage(save.error, 'locale') ?? fieldMessage(save.error, 'resourceId') ?? fieldMessage(save.error, 'resourceType');

  return (
    <article>
      <header>
        <h2>{locale}</h2>
        {saved ? (
          <small>
            Last saved <LocalDateTime iso={saved.updatedAt} />
          </small>
        ) : (
          <small>Not saved yet: this locale has no texts.</small>
        )}
      </header>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = parseContent(text);
          if ('problem' in parsed) {
            setProblem(parsed.problem);
            save.reset();
            return;
          }
          setProblem(undefined);
          save.mutate(parsed.content);
        }}
      >
        <label>
          Texts of {locale} (JSON)
          <textarea
            className="code-input"
            rows={16}
            spellCheck={false}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setProblem(undefined);
            }}
            {...contentNote.inputProps}
          />
          {contentNote.note}
        </label>
        {save.error && !contentNote.note ? (
          <ErrorNote error={otherField ? new Error(otherField) : save.error} title="Could not save the translation" />
        ) : null}
        {save.isSuccess ? <p role="status">Saved.</p> : null}
        <div className="grid">
          <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
            Save {locale}
          </button>
          {saved ? (
            <ConfirmButton
              label={`Delete ${locale}`}
              title={`Delete the ${locale} texts?`}
              confirmLabel="Delete"
              run={() => api(environmentId, `${resourceUrl(resourceType, resourceId)}/${encodeURIComponent(locale)}`, { method: 'DELETE' })}
              onDone={async () => {
                await navigate(groupPath(environmentId, resourceType, resourceId));
                await invalidate();
              }}
            >
              <p>Messages to subscribers in {locale} then fall back to the organization's default locale.</p>
            </ConfirmButton>
          ) : null}
        </div>
      </form>
    </article>
  );
}
