import { Link, useParams, useSearchParams } from 'react-router';
import { OffsetPager, usePageIndex } from '../../components/list-pager.tsx';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { ScrollTable } from '../../components/scroll-table.tsx';
import { SearchForm } from '../../components/search-form.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { PAGE_SIZE, useWorkflowList, workflowPath } from './queries.ts';
import type { WorkflowListItem } from './types.ts';
import './workflows.css';

// GET /v2/workflows as a table. The search (which the API matches in names, workflowIds and tags)
// and the page live in the query string, so a copied URL opens the same rows.

export function WorkflowsList() {
  const { environmentId = '' } = useParams();
  const [params] = useSearchParams();
  const query = params.get('query') ?? '';
  const pageIndex = usePageIndex();
  const list = useWorkflowList(environmentId, query, pageIndex + 1);

  return (
    <section>
      <h1>Workflows</h1>
      <p>
        <Link role="button" to="new">
          New workflow
        </Link>
      </p>
      <SearchForm label="Search workflows" placeholder="Name, workflow ID or tag" />
      <QueryState query={list} what="workflows">
        {({ workflows, totalCount }) =>
          workflows.length === 0 ? (
            <Empty>
              {pageIndex > 0 ? (
                <>
                  No workflows on page {pageIndex + 1}.{' '}
                  <Link to={`?${new URLSearchParams({ ...(query && { query }) })}`}>Back to the first page</Link>
                </>
              ) : query ? (
                `No workflow matches “${query}”. Try another name, workflow ID or tag.`
              ) : (
                'No workflows yet: create one with New workflow above (or with POST /v2/workflows).'
              )}
            </Empty>
          ) : (
            <>
              <ScrollTable className="striped" columns={['Name', 'Workflow ID', 'Status', 'Issues', 'Tags', 'Updated']}>
                {workflows.map((workflow) => (
                  <WorkflowRow key={workflow._id} environmentId={environmentId} workflow={workflow} />
                ))}
              </ScrollTable>
              <OffsetPager pageIndex={pageIndex} pageSize={PAGE_SIZE} total={totalCount} />
            </>
          )
        }
      </QueryState>
    </section>
  );
}

function WorkflowRow({ environmentId, workflow }: { environmentId: string; workflow: WorkflowListItem }) {
  return (
    <tr>
      <td>
        <Link to={workflowPath(environmentId, workflow.workflowId)}>{workflow.name}</Link>
        {workflow.origin === 'external' && (
          <>
            {' '}
            <small className="code-first-mark" title="Defined in your app's code, synced with npx novu sync">
              code-first
            </small>
          </>
        )}
      </td>
      <td>
        <code>{workflow.workflowId}</code>
      </td>
      <td>
        <StatusBadge status={workflow.active ? 'active' : 'inactive'} />
      </td>
      <td>
        {/* The list carries no issue count: an active workflow with issues has the status ERROR. */}
        {workflow.status === 'ERROR' ? <StatusBadge status="Has issues" /> : '—'}
      </td>
      <td>
        <ul className="workflow-tags">
          {workflow.tags.map((tag) => (
            <li key={tag}>
              <Link to={`?${new URLSearchParams({ query: tag })}`} title={`Workflows tagged ${tag}`}>
                {tag}
              </Link>
            </li>
          ))}
        </ul>
      </td>
      <td>
        <LocalDateTime iso={workflow.updatedAt} />
      </td>
    </tr>
  );
}
