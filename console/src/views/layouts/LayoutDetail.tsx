import './layouts.css';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { useBackToList } from '../../components/back-to-list.ts';
import { Breadcrumb } from '../../components/breadcrumb.tsx';
import { ConfirmButton } from '../../components/confirm-dialog.tsx';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { RawJson } from '../../components/raw-json.tsx';
import { QueryState } from '../../components/states.tsx';
import { DuplicateLayout } from './DuplicateLayout.tsx';
import { EditLayout } from './EditLayout.tsx';
import { LayoutPreviewFrame } from './LayoutPreviewFrame.tsx';
import { LayoutUsageList } from './LayoutUsageList.tsx';
import { layoutsPath, type Layout } from './types.ts';
import { consolePath } from '../../components/console-path.ts';

/** One layout: its content, a rendered preview, the workflows using it; duplicate and delete. */
export function LayoutDetail() {
  const { environmentId = '', layoutId = '' } = useParams();
  const layout = useQuery({
    queryKey: ['layouts', environmentId, 'one', layoutId],
    queryFn: ({ signal }) => api<Layout>(environmentId, `/v2/layouts/${encodeURIComponent(layoutId)}`, { signal }),
  });

  return (
    <section>
      <Breadcrumb listTo={layoutsPath(environmentId)} listLabel="Layouts" current={layout.data?.name ?? layoutId} />
      <QueryState query={layout} what="the layout">
        {(data) => <LayoutView environmentId={environmentId} layout={data} />}
      </QueryState>
    </section>
  );
}

function LayoutView({ environmentId, layout }: { environmentId: string; layout: Layout }) {
  const email = layout.controls?.values.email;
  return (
    <>
      <h1>
        {layout.name} {layout.isDefault ? <mark className="default-mark">Default</mark> : null}
      </h1>
      <dl className="layout-facts">
        <dt>Identifier</dt>
        <dd>
          <code>{layout.layoutId}</code>
        </dd>
        <dt>Slug</dt>
        <dd>
          <code>{layout.slug}</code>
        </dd>
        <dt>Translations</dt>
        <dd>
          {layout.isTranslationEnabled ? (
            <Link to={consolePath(environmentId, 'translations', 'layout', layout.layoutId)}>On: manage its texts</Link>
          ) : (
            'Off'
          )}
        </dd>
        <dt>Updated</dt>
        <dd>
          <LocalDateTime iso={layout.updatedAt} />
        </dd>
      </dl>
      <h2>Preview</h2>
      <LayoutPreviewFrame environmentId={environmentId} layout={layout} />
      <h2>Content</h2>
      {email ? (
        <details>
          <summary>{email.editorType === 'html' ? 'HTML' : 'Block document'}</summary>
          <pre>
            <code>{email.editorType === 'html' ? email.body : prettyJson(email.body)}</code>
          </pre>
        </details>
      ) : (
        <p>No content: emails sent in it get the step's body alone.</p>
      )}
      <RawJson value={layout} />
      <h2>Used by</h2>
      <LayoutUsageList environmentId={environmentId} layoutId={layout.layoutId} />
      <h2>Actions</h2>
      <EditLayout key={layout._id} environmentId={environmentId} layout={layout} />
      <DuplicateLayout environmentId={environmentId} layout={layout} />
      <DeleteLayout environmentId={environmentId} layout={layout} />
    </>
  );
}

/** A block document is JSON text: shown indented, or as it is when it is not JSON. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function DeleteLayout({ environmentId, layout }: { environmentId: string; layout: Layout }) {
  const backToList = useBackToList('layouts');
  return (
    <ConfirmButton
      label="Delete layout"
      title={`Delete ${layout.name}?`}
      confirmLabel="Delete"
      run={() => api(environmentId, `/v2/layouts/${encodeURIComponent(layout.layoutId)}`, { method: 'DELETE' })}
      onDone={backToList}
    >
      <p>
        The layout <code>{layout.layoutId}</code> and its translations are deleted. The default layout and a layout a workflow uses cannot
        be deleted.
      </p>
    </ConfirmButton>
  );
}
