import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CHANNELS, PAGE_SIZES, SEVERITIES, limitOf, localDateTime, paramsOfForm } from './filters.ts';
import { useWorkflowOptions } from './queries.ts';

/** The filters under "More filters", open when the URL sets any. */
const MORE = ['topicKey', 'search', 'after', 'before', 'limit', 'channels', 'severity'];

/**
 * The feed's filters as a form whose values come from the URL and go back to it on submit (a
 * new history entry, so back returns to the previous filter). Keyed by the query string by its
 * parent, so its fields follow the URL when back/forward changes it.
 */
export function ActivityFilters({ environmentId }: { environmentId: string }) {
  const [params, setParams] = useSearchParams();
  const workflows = useWorkflowOptions(environmentId);
  const list = (name: string) => params.getAll(name).join(', ');
  const checked = (name: string, value: string) => params.getAll(name).includes(value);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setParams(paramsOfForm(new FormData(event.currentTarget)));
  };

  return (
    <form aria-label="Filter notifications" onSubmit={submit} className="activity-filters">
      <div className="grid">
        <label>
          Subscriber IDs
          <input name="subscriberIds" defaultValue={list('subscriberIds')} placeholder="sub-1, sub-2" autoComplete="off" />
        </label>
        <label>
          Emails
          <input name="emails" defaultValue={list('emails')} placeholder="ada@example.com" autoComplete="off" />
        </label>
        <label>
          Transaction ID
          <input name="transactionId" defaultValue={list('transactionId')} autoComplete="off" />
        </label>
        <label>
          Workflow
          {/* Mounted again once the names are in, so the workflow the URL names shows as chosen. */}
          <select
            key={workflows.data ? 'loaded' : 'loading'}
            name="templates"
            defaultValue={params.get('templates') ?? ''}
            aria-busy={workflows.isPending}
          >
            <option value="">Any workflow</option>
            {/* A workflow the URL names that is not in the list (deleted, or past the first 100) stays chosen. */}
            {params.get('templates') && !workflows.data?.workflows.some((w) => w._id === params.get('templates')) && (
              <option value={params.get('templates')!}>{params.get('templates')}</option>
            )}
            {workflows.data?.workflows.map((w) => (
              <option key={w._id} value={w._id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <details open={MORE.some((name) => params.has(name))}>
        <summary>More filters</summary>
        <div className="grid">
          <label>
            Topic key
            <input name="topicKey" defaultValue={params.get('topicKey') ?? ''} autoComplete="off" />
          </label>
          <label>
            Search
            <input name="search" defaultValue={params.get('search') ?? ''} placeholder="Exact subscriber ID or email" autoComplete="off" />
          </label>
        </div>
        <div className="grid">
          <label>
            After
            <input type="datetime-local" step="1" name="after" defaultValue={localDateTime(params.get('after'))} />
          </label>
          <label>
            Before
            <input type="datetime-local" step="1" name="before" defaultValue={localDateTime(params.get('before'))} />
          </label>
          <label>
            Per page
            <select name="limit" defaultValue={String(limitOf(params))}>
              {/* A size the URL names that is not offered (the API takes any from 1 to 50) stays chosen. */}
              {!PAGE_SIZES.some((size) => size === limitOf(params)) && <option>{limitOf(params)}</option>}
              {PAGE_SIZES.map((size) => (
                <option key={size}>{size}</option>
              ))}
            </select>
          </label>
        </div>
        <div className="grid">
          <fieldset>
            <legend>Channels</legend>
            {CHANNELS.map(([value, label]) => (
              <label key={value} className="activity-check">
                <input type="checkbox" name="channels" value={value} defaultChecked={checked('channels', value)} />
                {label}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Severity</legend>
            {SEVERITIES.map((value) => (
              <label key={value} className="activity-check">
                <input type="checkbox" name="severity" value={value} defaultChecked={checked('severity', value)} />
                {value}
              </label>
            ))}
          </fieldset>
        </div>
      </details>
      <div className="button-row">
        <button type="submit">Apply filters</button>
        <Link to="." role="button" className="secondary outline">
          Clear filters
        </Link>
      </div>
    </form>
  );
}
