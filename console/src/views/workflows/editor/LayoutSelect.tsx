import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import type { LayoutList } from '../../layouts/types.ts';

// LAYOUT_SELECT: the email's layout, chosen from the environment's layouts (GET /v2/layouts).
// Left unset, the environment's default layout wraps the email; "No layout" (null) sends the body alone.

const NONE = '(none)';

export function LayoutSelect({
  environmentId,
  id,
  value,
  onChange,
  problem,
}: {
  environmentId: string;
  id: string;
  value: unknown;
  onChange: (value: string | null | undefined) => void;
  problem: string | undefined;
}) {
  const layouts = useQuery({
    queryKey: ['layouts', environmentId, 'list', 'for-select'],
    queryFn: ({ signal }) =>
      api<LayoutList>(environmentId, '/v2/layouts', { query: { limit: 100, orderBy: 'name', orderDirection: 'ASC' }, signal }),
  });
  const listed = layouts.data?.layouts ?? [];
  const current = value === null ? NONE : typeof value === 'string' ? value : '';
  // A layout the list does not hold (deleted, or past the first hundred) stays chosen, by its id.
  const unlisted = current && current !== NONE && !listed.some((layout) => layout.layoutId === current);
  return (
    <label>
      Layout
      <select
        id={id}
        value={current}
        aria-busy={layouts.isPending}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => onChange(event.target.value === NONE ? null : event.target.value || undefined)}
      >
        <option value="">(the default layout)</option>
        <option value={NONE}>No layout</option>
        {listed.map((layout) => (
          <option key={layout.layoutId} value={layout.layoutId}>
            {layout.name}
            {layout.isDefault ? ' (default)' : ''}
          </option>
        ))}
        {unlisted && <option value={current}>{current}</option>}
      </select>
      {layouts.error ? <small>The layouts could not be listed.</small> : null}
      {problem && (
        <small id={`${id}-problem`} className="field-error">
          {problem}
        </small>
      )}
    </label>
  );
}
