import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { OffsetPager, usePageIndex } from '../../components/list-pager.tsx';
import { ScrollTable } from '../../components/scroll-table.tsx';
import { SearchForm } from '../../components/search-form.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { MasterJsonDownload } from './MasterJsonDownload.tsx';
import { NewTranslation } from './NewTranslation.tsx';
import { groupPath, type TranslationGroupPage } from './types.ts';

const PAGE_SIZE = 20;

/** The environment's translation groups (a workflow's or a layout's locales), searched and paged through the URL. */
export function TranslationsList() {
  const { environmentId = '' } = useParams();
  const [params] = useSearchParams();
  const search = params.get('query') ?? '';
  const pageIndex = usePageIndex();
  const groups = useQuery({
    queryKey: ['translations', environmentId, 'list', search, pageIndex],
    queryFn: ({ signal }) =>
      api<TranslationGroupPage>(environmentId, '/v2/translations/list', {
        query: { query: search, limit: PAGE_SIZE, offset: pageIndex * PAGE_SIZE },
        signal,
      }),
  });

  return (
    <section>
      <h1>Translations</h1>
      <SearchForm label="Search translations by name or id" />
      <QueryState query={groups} what="translations">
        {(page) =>
          page.data.length === 0 ? (
            <Empty>
              {search
                ? `No translations match “${search}”.`
                : 'No translations yet: turn on translations for a workflow or a layout, then add a locale below.'}
            </Empty>
          ) : (
            <>
              <ScrollTable columns={['Resource', 'Type', 'Locales', 'Outdated', 'Updated']}>
                {page.data.map((group) => (
                  <tr key={`${group.resourceType}/${group.resourceId}`}>
                    <td>
                      <Link to={groupPath(environmentId, group.resourceType, group.resourceId)}>{group.resourceName}</Link>{' '}
                      <code>{group.resourceId}</code>
                    </td>
                    <td>{group.resourceType}</td>
                    <td>{group.locales.join(', ')}</td>
                    <td>{group.outdatedLocales?.length ? group.outdatedLocales.join(', ') : '—'}</td>
                    <td>
                      <LocalDateTime iso={group.updatedAt} />
                    </td>
                  </tr>
                ))}
              </ScrollTable>
              <OffsetPager pageIndex={pageIndex} pageSize={PAGE_SIZE} total={page.total} />
            </>
          )
        }
      </QueryState>
      <NewTranslation environmentId={environmentId} />
      <MasterJsonDownload environmentId={environmentId} />
    </section>
  );
}
