import './stats.css';
import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { fieldMessage, fieldProblem } from '../../components/api-field-error.tsx';
import { StepTypeName } from '../../components/named.tsx';
import { stepTypeLabel } from '../../components/names.ts';
import { ScrollTable } from '../../components/scroll-table.tsx';
import { Empty, QueryState } from '../../components/states.tsx';
import { RatesTable } from './RatesTable.tsx';
import { useWorkflowOptions } from '../activity/queries.ts';
import { channelsOf, countedAny, dayTotals, type Stats } from './types.ts';
import { VolumeChart } from './VolumeChart.tsx';

// Numbers over time: the environment's messages per day and each workflow's delivery and
// engagement rates, from GET /v1/engagement/stats (the last 30 days unless the URL says which).
// The channel picked (in the URL too) is chosen here, not by the API: its answer has every
// channel's counts, so emails can be told from in-app messages without asking again.

export function StatsView() {
  const { environmentId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const filters = {
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
    workflowId: params.get('workflowId') ?? undefined,
  };
  const channel = params.get('channel') ?? undefined;
  const workflows = useWorkflowOptions(environmentId);
  const workflowNames = new Map(workflows.data?.workflows.map((w) => [w.workflowId, w.name]));
  const stats = useQuery({
    queryKey: ['stats', environmentId, filters],
    queryFn: ({ signal }) => api<Stats>(environmentId, '/v1/engagement/stats', { query: filters, signal }),
  });

  // A range the API refuses says why under the field it is about.
  const from = fieldProblem('stats-from', fieldMessage(stats.error, 'from'));
  const to = fieldProblem('stats-to', fieldMessage(stats.error, 'to'));
  const workflow = fieldProblem('stats-workflow', fieldMessage(stats.error, 'workflowId'));

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of ['from', 'to', 'workflowId', 'channel']) {
      const value = String(form.get(name) ?? '').trim();
      if (value) next.set(name, value);
    }
    setParams(next);
  };

  return (
    <section>
      <h1>Stats</h1>
      <p>Messages sent, delivered, opened, clicked and read per day; each count is kept as it happens.</p>
      <form className="stats-filters" onSubmit={apply} key={`${params.toString()}|${stats.data?.from ?? ''}`}>
        <div>
          <label>
            From
            <input id="stats-from" type="date" name="from" defaultValue={filters.from ?? stats.data?.from ?? ''} {...from.inputProps} />
          </label>
          {from.note}
        </div>
        <div>
          <label>
            To
            <input id="stats-to" type="date" name="to" defaultValue={filters.to ?? stats.data?.to ?? ''} {...to.inputProps} />
          </label>
          {to.note}
        </div>
        <div>
          <label>
            Workflow ID
            <input
              id="stats-workflow"
              type="text"
              name="workflowId"
              placeholder="All workflows"
              defaultValue={filters.workflowId ?? ''}
              {...workflow.inputProps}
            />
          </label>
          {workflow.note}
        </div>
        <div>
          <label>
            Channel
            <select name="channel" defaultValue={channel ?? ''}>
              <option value="">All channels</option>
              {/* The channel the URL names stays chosen on a range that counted nothing on it. */}
              {[...new Set([...(stats.data ? channelsOf(stats.data) : []), ...(channel ? [channel] : [])])].map((c) => (
                <option key={c} value={c}>
                  {stepTypeLabel(c)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <button type="submit">Show</button>
      </form>
      <QueryState query={stats} what="stats">
        {(data) => {
          const days = dayTotals(data, channel);
          const shown = channel ? data.workflows.filter((w) => w.channels[channel]) : data.workflows;
          return (
            <>
              <h2>Volume per day</h2>
              <p>
                {data.from} to {data.to}
                {channel ? (
                  <>
                    {', '}
                    <StepTypeName type={channel} /> only
                  </>
                ) : (
                  ', all channels'
                )}
              </p>
              <VolumeChart days={days} />
              <details>
                <summary>Numbers by day</summary>
                {/* Triggers are counted per workflow, not per channel: shown for all channels only. */}
                <ScrollTable
                  columns={['Day', ...(channel ? [] : ['Triggered']), 'Sent', 'Delivered', 'Failed', 'Opened', 'Clicked', 'Read']}
                >
                  {days.filter(countedAny).map((d) => (
                    <tr key={d.date}>
                      <td>{d.date}</td>
                      {!channel && <td>{d.triggered}</td>}
                      <td>{d.sent}</td>
                      <td>{d.delivered}</td>
                      <td>{d.failed}</td>
                      <td>{d.opened}</td>
                      <td>{d.clicked}</td>
                      <td>{d.read}</td>
                    </tr>
                  ))}
                </ScrollTable>
              </details>
              <h2 id="rates-heading">Delivery and engagement per workflow</h2>
              {shown.length === 0 ? (
                <Empty>Nothing was sent in these days.</Empty>
              ) : (
                <RatesTable workflows={shown} channel={channel} workflowNames={workflowNames} />
              )}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
