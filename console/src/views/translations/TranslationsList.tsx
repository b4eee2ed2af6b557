import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { OffsetPager, usePageIndex } from '../../components/list-pager.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { MasterJsonDownload } from './MasterJsonDownload.tsx';
import { NewTranslation } from './NewTranslation.tsx';
import { groupPath, type TranslationGroupPage } from './types.ts';

const PAGE_SIZE = 20;

/** The environment's translation groups (a workflow's or a layout's locales), searched and paged through the URL. */
export function TranslationsList() {
  const { environmentId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const search = params.get('query') ?? '';
  const pageIndex = usePageIndex();
  const groups = useQuery({
    queryKey: ['translations', environmentId, 'groups', search, pageIndex],
    queryFn: ({ signal }) =>
      api<TranslationGroupPage>(environmentId, '/v2/translations/list', { query: { query: search, limit: PAGE_SIZE, offset: pageIndex * PAGE_SIZE }, signal }),
  });

  return (
    <section>
      <h1>Translations</h1>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const value = String(new FormData(event.currentTarget).get('query') ?? '').trim();
          setParams(value ? { query: value } : {});
        }}
      >
        <fieldset role="group">
          <input type="search" name="query" aria-label="Search translations by name or id" placeholder="Search by name or id" defaultValue={search} key={search} />
          <button type="submit">Search</button>
        </fieldset>
      </form>
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
              <div className="table-scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Resource</th>
                      <th scope="col">Type</th>
                      <th scope="col">Locales</th>
                      <th scope="col">Outdated</th>
                      <th scope="col">Updated</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((group) => (
                      <tr key={`${group.resourceType}/${group.resourceId}`}>
                        <td>
                          <Link to={groupPath(environmentId, group.resourceType, group.resourceId)}>{group.resourceName}</Link> <code>{group.resourceId}</code>
                        </td>
                        <td>{group.resourceType}</td>
                        <td>{group.locales.join(', ')}</td>
                        <td>{group.outdatedLocales?.length ? group.outdatedLocales.join(', ') : '—'}</td>
                        <td>
                          <LocalDateTime iso={group.updatedAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
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
