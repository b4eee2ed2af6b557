import { Link, useParams, useSearchParams } from 'react-router';
import { StepTypeName } from '../../components/named.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { ActivityFilters } from './ActivityFilters.tsx';
import { EmptyActivity } from './EmptyActivity.tsx';
import { isFiltered, pageOf, withPage } from './filters.ts';
import { notificationPath, subscriberLabel, workflowName } from './format.ts';
import { useActivityPage } from './queries.ts';
import { jobChannels, overallStatus } from './status.ts';
import type { ActivityNotification, ActivityPage } from './types.ts';
import './activity.css';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { ScrollTable } from '../../components/scroll-table.tsx';

/** `/console/env/:environmentId/activity`: the feed of triggered notifications, filtered by the URL. */
export function ActivityList() {
  const { environmentId = '' } = useParams();
  const [params] = useSearchParams();
  const feed = useActivityPage(environmentId, params);

  return (
    <section>
      <h1>Activity</h1>
      <ActivityFilters key={params.toString()} environmentId={environmentId} />
      {/* A notification is made shortly after its trigger is accepted: asking again shows it. */}
      <p>
        <button
          type="button"
          className="secondary outline"
          onClick={() => void feed.refetch()}
          disabled={feed.isFetching}
          aria-busy={feed.isFetching}
        >
          Refresh
        </button>
      </p>
      <QueryState query={feed} what="notifications">
        {(page) => <FeedPage environmentId={environmentId} page={page} params={params} />}
      </QueryState>
    </section>
  );
}

function FeedPage({ environmentId, page, params }: { environmentId: string; page: ActivityPage; params: URLSearchParams }) {
  const current = pageOf(params);
  if (page.data.length === 0 && current === 0) {
    return isFiltered(params) ? (
      <Empty>No notification matches these filters. Loosen or clear them to see more.</Empty>
    ) : (
      <EmptyActivity environmentId={environmentId} />
    );
  }
  return (
    <>
      <ScrollTable
        className="striped activity-feed"
        columns={['Workflow', 'Subscriber', 'Channels', 'Status', 'Created', 'Transaction ID']}
      >
        {page.data.map((n) => (
          <FeedRow key={n._id} environmentId={environmentId} notification={n} />
        ))}
      </ScrollTable>
      {page.data.length === 0 && <Empty>No more notifications on this page.</Empty>}
      <nav aria-label="Pages" className="activity-pages">
        {current > 0 ? <Link to={withPage(params, current - 1)}>← Newer</Link> : <span />}
        <span>Page {current + 1}</span>
        {page.hasMore ? <Link to={withPage(params, current + 1)}>Older →</Link> : <span />}
      </nav>
    </>
  );
}

function FeedRow({ environmentId, notification: n }: { environmentId: string; notification: ActivityNotification }) {
  return (
    <tr>
      <td>
        <Link to={notificationPath(environmentId, n._id)}>{workflowName(n)}</Link>
      </td>
      <td>{subscriberLabel(n)}</td>
      <td>
        {jobChannels(n).map((channel, i) => (
          <span key={channel}>
            {i > 0 && ', '}
            <StepTypeName type={channel} />
          </span>
        ))}
      </td>
      <td>
        <StatusBadge status={overallStatus(n)} />
      </td>
      <td>
        <LocalDateTime iso={n.createdAt} />
      </td>
      <td>
        <code>{n.transactionId}</code>
      </td>
    </tr>
  );
}
