import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { fieldMessage, fieldProblem } from '../../components/api-field-error.tsx';
import { ErrorNote } from '../../components/states.tsx';
import { layoutPath, type Layout } from './types.ts';
import { FormDisclosure } from '../../components/form-disclosure.tsx';
import { onSubmitted } from '../../components/submitted-form.ts';
import { readAgain } from '../../api/read-again.ts';

/** A copy of the layout's content under a new name (never the default), then opens it. */
export function DuplicateLayout({ environmentId, layout }: { environmentId: string; layout: Layout }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const duplicate = useMutation({
    mutationFn: ({ name, layoutId }: { name: string; layoutId: string }) =>
      api<Layout>(environmentId, `/v2/layouts/${encodeURIComponent(layout.layoutId)}/duplicate`, {
        method: 'POST',
        body: { name, ...(layoutId && { layoutId }), isTranslationEnabled: layout.isTranslationEnabled },
      }),
    onSuccess: async (copy) => {
      await readAgain(queryClient, ['layouts', environmentId]);
      await navigate(layoutPath(environmentId, copy.layoutId));
    },
  });
  const name = fieldProblem('duplicate-name', fieldMessage(duplicate.error, 'name'));
  const layoutId = fieldProblem('duplicate-id', fieldMessage(duplicate.error, 'layoutId'));
  return (
    <FormDisclosure summary="Duplicate">
      <form onSubmit={onSubmitted((text) => duplicate.mutate({ name: text('name'), layoutId: text('layoutId') }))}>
        <label>
          Name of the copy
          <input name="name" required maxLength={128} defaultValue={`${layout.name} (copy)`} {...name.inputProps} />
          {name.note}
        </label>
        <label>
          Identifier of the copy
          <input name="layoutId" placeholder="Made from the name when left empty" {...layoutId.inputProps} />
          {layoutId.note}
        </label>
        {duplicate.error && !name.note && !layoutId.note ? (
          <ErrorNote error={duplicate.error} title="Could not duplicate the layout" />
        ) : null}
        <button type="submit" disabled={duplicate.isPending} aria-busy={duplicate.isPending}>
          Duplicate layout
        </button>
      </form>
    </FormDisclosure>
  );
}
