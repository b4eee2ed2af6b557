import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { fieldMessage, fieldProblem } from '../../components/api-field-error.tsx';
import { ErrorNote } from '../../components/states.tsx';
import { layoutPath, type Layout } from './types.ts';
import { FormDisclosure } from '../../components/form-disclosure.tsx';
import { onSubmitted } from '../../components/submitted-form.ts';
import { readAgain } from '../../api/read-again.ts';

interface NewLayout {
  name: string;
  layoutId?: string;
  html?: string;
}

/** Creates a layout (name, optional identifier, optional HTML with its `{{content}}` slot) and opens it. */
export function CreateLayout({ environmentId }: { environmentId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: ({ name, layoutId, html }: NewLayout) =>
      api<Layout>(environmentId, '/v2/layouts', {
        method: 'POST',
        body: { name, ...(layoutId && { layoutId }), ...(html && { controlValues: { email: { body: html, editorType: 'html' } } }) },
      }),
    onSuccess: async (layout) => {
      await readAgain(queryClient, ['layouts', environmentId]);
      await navigate(layoutPath(environmentId, layout.layoutId));
    },
  });
  const name = fieldProblem('layout-name', fieldMessage(create.error, 'name'));
  const layoutId = fieldProblem('layout-id', fieldMessage(create.error, 'layoutId'));
  const html = fieldProblem('layout-html', fieldMessage(create.error, 'controlValues.email.body'));

  return (
    <FormDisclosure summary="New layout">
      <form onSubmit={onSubmitted((text) => create.mutate({ name: text('name'), layoutId: text('layoutId'), html: text('html') }))}>
        <label>
          Name
          <input name="name" required maxLength={128} {...name.inputProps} />
          {name.note}
        </label>
        <label>
          Identifier (layoutId)
          <input name="layoutId" placeholder="Made from the name when left empty" {...layoutId.inputProps} />
          {layoutId.note}
        </label>
        <label>
          HTML (optional)
          <textarea
            name="html"
            rows={6}
            placeholder="<html><body>… {{content}} …</body></html>. Empty: the block editor's empty layout."
            spellCheck={false}
            {...html.inputProps}
          />
          {html.note}
        </label>
        {create.error && !name.note && !layoutId.note && !html.note ? (
          <ErrorNote error={create.error} title="Could not create the layout" />
        ) : null}
        <button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
          Create layout
        </button>
      </form>
    </FormDisclosure>
  );
}
