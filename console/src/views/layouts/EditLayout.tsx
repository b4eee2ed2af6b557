import './layouts.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { fieldMessage, fieldProblem } from '../../components/api-field-error.tsx';
import { FormDisclosure } from '../../components/form-disclosure.tsx';
import { ErrorNote } from '../../components/states.tsx';
import { onSubmitted } from '../../components/submitted-form.ts';
import type { Layout } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

/**
 * Name, translations switch and content, written whole with PUT (the identifier never changes).
 * The preview is keyed by the layout's last change, so it is rendered again after a save.
 */
export function EditLayout({ environmentId, layout }: { environmentId: string; layout: Layout }) {
  const queryClient = useQueryClient();
  const email = layout.controls?.values.email;
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api<Layout>(environmentId, `/v2/layouts/${encodeURIComponent(layout.layoutId)}`, { method: 'PUT', body }),
    onSuccess: () => readAgain(queryClient, ['layouts', environmentId]),
  });
  const name = fieldProblem('edit-layout-name', fieldMessage(save.error, 'name'));
  const body = fieldProblem('edit-layout-body', fieldMessage(save.error, 'controlValues.email.body'));
  return (
    <FormDisclosure summary="Edit">
      <form
        onSubmit={onSubmitted((text, form) =>
          save.mutate({
            name: text('name'),
            isTranslationEnabled: form.get('isTranslationEnabled') === 'on',
            // An empty body removes the content (null), as the API reads it.
            controlValues: text('body') ? { email: { body: text('body'), editorType: text('editorType') } } : null,
          }),
        )}
      >
        <label>
          Name
          <input name="name" required maxLength={128} defaultValue={layout.name} {...name.inputProps} />
          {name.note}
        </label>
        <label>
          <input type="checkbox" role="switch" name="isTranslationEnabled" defaultChecked={layout.isTranslationEnabled} />
          Translations (turning them off deletes the layout's translations)
        </label>
        <label>
          Editor
          <select name="editorType" defaultValue={email?.editorType ?? 'html'}>
            <option value="html">HTML</option>
            <option value="block">Block document (JSON)</option>
          </select>
        </label>
        <label>
          Content
          <textarea name="body" className="code-input" rows={10} spellCheck={false} defaultValue={email?.body ?? ''} {...body.inputProps} />
          {body.note}
        </label>
        {save.error && !name.note && !body.note ? <ErrorNote error={save.error} title="Could not save the layout" /> : null}
        {save.isSuccess ? <p role="status">Saved.</p> : null}
        <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
          Save layout
        </button>
      </form>
    </FormDisclosure>
  );
}
