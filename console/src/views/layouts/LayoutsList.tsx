import './layouts.css';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { OffsetPager, usePageIndex } from '../../components/list-pager.tsx';
import { ScrollTable } from '../../components/scroll-table.tsx';
import { SearchForm } from '../../components/search-form.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { CreateLayout } from './CreateLayout.tsx';
import { layoutPath, type LayoutList } from './types.ts';

const PAGE_SIZE = 20;

/** The environment's layouts: searched and paged through the URL, the default one marked. */
export function LayoutsList() {
  const { environmentId = '' } = useParams();
  const [params] = useSearchParams();
  const search = params.get('query') ?? '';
  const pageIndex = usePageIndex();
  const layouts = useQuery({
    queryKey: ['layouts', environmentId, 'list', search, pageIndex],
    queryFn: ({ signal }) =>
      api<LayoutList>(environmentId, '/v2/layouts', {
        query: { query: search, limit: PAGE_SIZE, offset: pageIndex * PAGE_SIZE, orderBy: 'name', orderDirection: 'ASC' },
        signal,
      }),
  });

  return (
    <section>
      <h1>Layouts</h1>
      <SearchForm label="Search layouts by name or identifier" />
      <QueryState query={layouts} what="layouts">
        {(data) =>
          data.layouts.length === 0 ? (
            <Empty>
              {search ? `No layout matches “${search}”.` : 'No layouts yet: create one below; the first one becomes the default.'}
            </Empty>
          ) : (
            <>
              <ScrollTable columns={['Name', 'Identifier', 'Translations', 'Updated']}>
                {data.layouts.map((layout) => (
                  <tr key={layout._id}>
                    <td>
                      <Link to={layoutPath(environmentId, layout.layoutId)}>{layout.name}</Link>{' '}
                      {layout.isDefault ? <mark className="default-mark">Default</mark> : null}
                    </td>
                    <td>
                      <code>{layout.layoutId}</code>
                    </td>
                    <td>{layout.isTranslationEnabled ? 'On' : 'Off'}</td>
                    <td>
                      <LocalDateTime iso={layout.updatedAt} />
                    </td>
                  </tr>
                ))}
              </ScrollTable>
              <OffsetPager pageIndex={pageIndex} pageSize={PAGE_SIZE} total={data.totalCount} />
            </>
          )
        }
      </QueryState>
      <CreateLayout environmentId={environmentId} />
    </section>
  );
}
