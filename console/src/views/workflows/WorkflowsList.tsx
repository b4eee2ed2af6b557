import type { FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Empty, QueryState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { PAGE_SIZE, useWorkflowList, workflowPath } from './queries.ts';
import type { WorkflowListItem } from './types.ts';
import './workflows.css';
import { LocalDateTime } from '../../components/local-date-time.tsx';

// GET /v2/workflows as a table. The search (which the API matches in names, workflowIds and tags)
// and the page live in the query string, so a copied URL opens the same rows.

export function WorkflowsList() {
  const { environmentId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const query = params.get('query') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const list = useWorkflowList(environmentId, query, page);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('query') ?? '').trim();
    setParams(value ? { query: value } : {});
  };
  const pageLink = (to: number) => `?${new URLSearchParams({ ...(query && { query }), ...(to > 1 && { page: String(to) }) })}`;

  return (
    <section>
      <h1>Workflows</h1>
      <form role="search" onSubmit={search}>
        <fieldset role="group">
          <input key={query} type="search" name="query" aria-label="Search workflows" placeholder="Name, workflow ID or tag" defaultValue={query} />
          <button type="submit">Search</button>
        </fieldset>
      </form>
      <QueryState query={list} what="workflows">
        {({ workflows, totalCount }) =>
          workflows.length === 0 ? (
            <Empty>
              {page > 1 ? (
                <>
                  No workflows on page {page}. <Link to={pageLink(1)}>Back to the first page</Link>
                </>
              ) : query
                ? `No workflow matches “${query}”. Try another name, workflow ID or tag.`
                : 'No workflows yet. Create one with POST /v2/workflows (or an SDK), then it shows here.'}
            </Empty>
          ) : (
            <>
              <div className="table-scroll">
                <table className="striped">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Workflow ID</th>
                      <th scope="col">Status</th>
                      <th scope="col">Issues</th>
                      <th scope="col">Tags</th>
                      <th scope="col">Updated</th>
                    </tr>
                  </thead>
                  <tbody>
                    {workflows.map((workflow) => (
                      <WorkflowRow key={workflow._id} environmentId={environmentId} workflow={workflow} />
                    ))}
                  </tbody>
                </table>
              </div>
              <nav aria-label="Pages" className="workflow-pages">
                <span>
                  {(page - 1) * PAGE_SIZE + 1}–{(page - 1) * PAGE_SIZE + workflows.length} of {totalCount}
                </span>
                {page > 1 && <Link to={pageLink(page - 1)}>Previous page</Link>}
                {page * PAGE_SIZE < totalCount && <Link to={pageLink(page + 1)}>Next page</Link>}
              </nav>
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
      <td><LocalDateTime iso={workflow.updatedAt} /></td>
    </tr>
  );
}
