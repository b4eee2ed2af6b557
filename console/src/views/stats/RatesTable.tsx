import { StepTypeName } from '../../components/named.tsx';
import { ScrollTable } from '../../components/scroll-table.tsx';
import type { Rates, StatsWorkflow } from './types.ts';

// Delivery and engagement rates per workflow and channel, each with a small bar (SVG) beside its
// percentage; a rate of nothing (no message sent or delivered) shows as a dash. Workflows and
// channels by the names a person reads, their ids on hover.

const RATES: readonly [keyof Rates, string][] = [
  ['delivery', 'Delivered'],
  ['open', 'Opened'],
  ['click', 'Clicked'],
  ['read', 'Read'],
];

function Rate({ value, label }: { value: number | null; label: string }) {
  if (value === null) return <span aria-label={`${label}: no data`}>—</span>;
  const percent = Math.round(value * 1000) / 10;
  return (
    <span className="rate" data-rate={value}>
      <svg width="60" height="8" aria-hidden="true">
        <rect className="rate-track" width="60" height="8" />
        <rect className="rate-fill" width={60 * Math.min(1, value)} height="8" />
      </svg>{' '}
      {percent}%
    </span>
  );
}

interface RatesTableProps {
  workflows: StatsWorkflow[];
  /** Only this channel's rows, when one is picked. */
  channel?: string;
  /** Workflow names by workflowId; a workflow not in it (deleted, or past the first 100) shows its id. */
  workflowNames: ReadonlyMap<string, string>;
}

export function RatesTable({ workflows, channel: picked, workflowNames }: RatesTableProps) {
  const rows = workflows.flatMap((w) =>
    Object.keys(w.channels)
      .filter((channel) => !picked || channel === picked)
      .map((channel) => ({ w, channel })),
  );
  return (
    <ScrollTable
      columns={['Workflow', 'Channel', 'Triggered', 'Sent', 'Failed', ...RATES.map(([, label]) => label)]}
      labelledBy="rates-heading"
    >
      {rows.map(({ w, channel }) => {
        const counts = w.channels[channel]!;
        const rates = w.rates[channel]!;
        return (
          <tr key={`${w.workflowId}/${channel}`} data-workflow={w.workflowId} data-channel={channel}>
            <td>
              <span title={w.workflowId}>{workflowNames.get(w.workflowId) ?? w.workflowId}</span>
            </td>
            <td>
              <StepTypeName type={channel} />
            </td>
            <td>{w.triggered}</td>
            <td>{counts.sent}</td>
            <td>{counts.failed}</td>
            {RATES.map(([key, label]) => (
              <td key={key}>
                <Rate value={rates[key]} label={label} />
              </td>
            ))}
          </tr>
        );
      })}
    </ScrollTable>
  );
}
