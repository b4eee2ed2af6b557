import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { Breadcrumb } from '../../components/breadcrumb.tsx';
import { Loading, QueryState } from '../../components/states.tsx';
import { TabNav } from '../../components/tab-nav.tsx';
import { PreferencesPanel } from './PreferencesPanel.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import { subscriberQueryKey } from './query-keys.ts';
import { TopicsPanel } from './TopicsPanel.tsx';
import './subscribers.css';
import { fullName, type Subscriber } from './types.ts';
import { consolePath } from '../../components/console-path.ts';

// Only this tab downloads @novu/react (its own chunk of the build).
const SubscriberInbox = lazy(() => import('./SubscriberInbox.tsx'));

const TABS = [
  ['profile', 'Profile'],
  ['preferences', 'Preferences'],
  ['topics', 'Topics'],
  ['inbox', 'Inbox'],
] as const;
type Tab = (typeof TABS)[number][0];

/** One subscriber: profile, preferences, topics and live inbox, the tab in `?tab=`. */
export function SubscriberPage() {
  const { environmentId = '', subscriberId = '' } = useParams();
  const [params] = useSearchParams();
  const tab: Tab = TABS.find(([id]) => id === params.get('tab'))?.[0] ?? 'profile';
  const query = useQuery({
    queryKey: subscriberQueryKey(environmentId, subscriberId),
    queryFn: ({ signal }) => api<Subscriber>(environmentId, `/v2/subscribers/${encodeURIComponent(subscriberId)}`, { signal }),
  });
  const name = query.data && fullName(query.data);

  return (
    <section>
      <Breadcrumb listTo={consolePath(environmentId, 'subscribers')} listLabel="Subscribers" current={subscriberId} />
      <h1>{name || subscriberId}</h1>
      {name && <p className="subscriber-id">{subscriberId}</p>}
      <QueryState query={query} what="the subscriber">
        {(subscriber) => (
          <>
            <TabNav
              label="Subscriber sections"
              tabs={TABS.map(([id, label]) => ({ key: id, label, to: `?tab=${id}`, current: tab === id }))}
            />
            {/* Keyed: another subscriber's page starts from that subscriber's profile, not this draft. */}
            {tab === 'profile' && <ProfileForm key={subscriber.subscriberId} environmentId={environmentId} subscriber={subscriber} />}
            {tab === 'preferences' && <PreferencesPanel environmentId={environmentId} subscriberId={subscriberId} />}
            {tab === 'topics' && <TopicsPanel environmentId={environmentId} subscriberId={subscriberId} />}
            {tab === 'inbox' && (
              <section aria-label="Inbox">
                <Suspense fallback={<Loading what="the inbox" />}>
                  <SubscriberInbox environmentId={environmentId} subscriberId={subscriberId} />
                </Suspense>
              </section>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
