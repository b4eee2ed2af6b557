import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { Empty, QueryState } from '../../components/states.tsx';
import { useCursor } from '../../components/list-pager.tsx';
import { PageTable, type Column } from './PageTable.tsx';
import { subscribersListKey } from './query-keys.ts';
import './subscribers.css';
import type { CursorPage } from '../../api/cursor-page.ts';
import { fullName, type Subscriber } from './types.ts';
import { LocalDateTime } from '../../components/local-date-time.tsx';
import { consolePath } from '../../components/console-path.ts';

// GET /v2/subscribers with its filters (subscriberId exact, email exact, name contained, phone
// exact) and cursor pages, all in the URL.

const FILTERS = [
  ['subscriberId', 'Subscriber ID', 'text'],
  ['email', 'Email', 'email'],
  ['name', 'Name', 'text'],
  ['phone', 'Phone', 'tel'],
] as const;
const PAGE_SIZE = 20;

const columns = (environmentId: string): Column<Subscriber>[] => [
  ['Subscriber ID', (s) => <Link to={consolePath(environmentId, 'subscribers', s.subscriberId)}>{s.subscriberId}</Link>],
  ['Name', fullName],
  ['Email', (s) => s.email],
  ['Phone', (s) => s.phone],
  ['Created', (s) => <LocalDateTime iso={s.createdAt} />],
];

export function SubscribersList() {
  const { environmentId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const cursor = useCursor();
  const filters = Object.fromEntries(FILTERS.map(([name]) => [name, params.get(name) ?? undefined]));
  const query = useQuery({
    queryKey: [...subscribersListKey(environmentId), params.toString()],
    queryFn: ({ signal }) =>
      api<CursorPage<Subscriber>>(environmentId, '/v2/subscribers', { query: { ...filters, ...cursor, limit: PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });
  const filtered = FILTERS.some(([name]) => params.get(name));

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const [name] of FILTERS) {
      const value = String(form.get(name) ?? '').trim();
      if (value) next.set(name, value);
    }
    setParams(next);
  };

  return (
    <section>
      <h1>Subscribers</h1>
      {/* Not role="search" on the form: Pico draws that as one pill-shaped input group. Keyed by
          the URL's filters so Back/Forward refill the fields. */}
      <search>
        <form aria-label="Search subscribers" onSubmit={search} key={params.toString()}>
          <div className="grid">
            {FILTERS.map(([name, label, type]) => (
              <label key={name}>
                {label}
                <input name={name} type={type} defaultValue={params.get(name) ?? ''} autoComplete="off" />
              </label>
            ))}
          </div>
          <div className="button-row">
            <button type="submit">Search</button>
            <button type="button" className="secondary" disabled={!filtered} onClick={() => setParams(new URLSearchParams())}>
              Clear
            </button>
          </div>
        </form>
      </search>
      <OpenById environmentId={environmentId} />
      <QueryState query={query} what="subscribers">
        {(page) =>
          page.data.length === 0 ? (
            <Empty>
              {filtered
                ? 'No subscriber matches these filters. ' +
                  'The subscriber ID, email and phone must match exactly; the name may be a part of it.'
                : 'No subscribers yet. ' +
                  'They are created by a trigger to a new subscriberId, by POST /v2/subscribers, or when an inbox opens.'}
            </Empty>
          ) : (
            <PageTable page={page} columns={columns(environmentId)} label="Subscriber pages" />
          )
        }
      </QueryState>
    </section>
  );
}

function OpenById({ environmentId }: { environmentId: string }) {
  const navigate = useNavigate();
  const [id, setId] = useState('');
  const inputId = useId();
  const open = (event: FormEvent) => {
    event.preventDefault();
    if (id.trim()) void navigate(consolePath(environmentId, 'subscribers', id.trim()));
  };
  return (
    <form onSubmit={open} aria-label="Open a subscriber" className="subscriber-open">
      <label htmlFor={inputId}>Open by subscriber ID</label>
      <div role="group">
        <input id={inputId} value={id} onChange={(e) => setId(e.target.value)} autoComplete="off" />
        <button type="submit" disabled={!id.trim()}>
          Open
        </button>
      </div>
    </form>
  );
}
