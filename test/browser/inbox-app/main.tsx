import { Inbox } from '@novu/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// A product page embedding the reference's <Inbox /> with only what docs/inbox.md says to change:
// the URLs and socketType. Everything comes from the query string, so one built bundle serves
// every test (each with its own environment and subscriber).
const params = new URLSearchParams(window.location.search);

function required(name: string): string {
  const value = params.get(name);
  if (!value) throw new Error(`The page needs ?${name}=`);
  return value;
}

const subscriberHash = params.get('subscriberHash') ?? undefined;
// The default bell shows only a dot while anything is unread; `?bell=count` renders the count the
// inbox hands to `renderBell` (the same number the dot follows), as a product that shows it would.
const countBell = params.get('bell') === 'count';
// `?tabs=a,b`: an "All" tab, then one tab per tag (each with its own unread badge).
const tabTags = params.get('tabs')?.split(',').filter(Boolean) ?? [];
const tabs =
  tabTags.length > 0
    ? [{ label: 'All', filter: { tags: [] } }, ...tabTags.map((tag) => ({ label: tag, filter: { tags: [tag] } }))]
    : undefined;
const root = document.getElementById('inbox');
if (!root) throw new Error('No #inbox element');

createRoot(root).render(
  <StrictMode>
    <Inbox
      applicationIdentifier={required('applicationIdentifier')}
      subscriber={required('subscriber')}
      {...(subscriberHash && { subscriberHash })}
      backendUrl={required('backendUrl')}
      socketUrl={required('socketUrl')}
      socketOptions={{ socketType: 'cloud' }}
      tabs={tabs}
      renderBell={countBell ? (unread) => <span>{unread.total} unread</span> : undefined}
    />
  </StrictMode>,
);
