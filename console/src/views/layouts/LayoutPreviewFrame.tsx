import './layouts.css';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { Empty, QueryState } from '../../components/states.tsx';
import type { Layout, LayoutPreview } from './types.ts';

/**
 * The layout rendered by the API (a placeholder table in its slot, an example subscriber) inside a
 * sandboxed frame: `sandbox` with no permissions runs no script and reaches nothing of the console.
 */
export function LayoutPreviewFrame({ environmentId, layout }: { environmentId: string; layout: Layout }) {
  const preview = useQuery({
    // Keyed by the layout's last change, so a changed layout is rendered again.
    queryKey: ['layouts', environmentId, 'preview', layout.layoutId, layout.updatedAt],
    queryFn: ({ signal }) =>
      api<LayoutPreview>(environmentId, `/v2/layouts/${encodeURIComponent(layout.layoutId)}/preview`, { method: 'POST', body: {}, signal }),
  });
  return (
    <QueryState query={preview} what="the preview">
      {(data) =>
        data.result.preview ? (
          <iframe className="layout-preview" title={`Preview of ${layout.name}`} sandbox="" srcDoc={data.result.preview.body} />
        ) : (
          <Empty>This layout cannot be rendered: give it HTML holding {'{{content}}'}.</Empty>
        )
      }
    </QueryState>
  );
}
