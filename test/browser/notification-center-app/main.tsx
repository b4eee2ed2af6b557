import { NovuProvider, PopoverNotificationCenter } from '@novu/notification-center';
import { createRoot } from 'react-dom/client';

// A product page embedding the legacy <PopoverNotificationCenter /> of
// @novu/notification-center 2.0.0 (React 18: this app's own dependencies, apart from the
// service's React 19) with only backendUrl and socketUrl changed. Everything comes from the query
// string, so one built bundle serves every test. The bell shows the unseen count the widget
// hands its children (its default bell shows only a dot).
const params = new URLSearchParams(window.location.search);

function required(name: string): string {
  const value = params.get(name);
  if (!value) throw new Error(`The page needs ?${name}=`);
  return value;
}

const root = document.getElementById('widget');
if (!root) throw new Error('No #widget element');

createRoot(root).render(
  <NovuProvider
    applicationIdentifier={required('applicationIdentifier')}
    subscriberId={required('subscriberId')}
    backendUrl={required('backendUrl')}
    socketUrl={required('socketUrl')}
  >
    <PopoverNotificationCenter colorScheme="light">
      {({ unseenCount }) => (
        <button type="button" data-testid="bell">
          {unseenCount ?? 0} unseen
        </button>
      )}
    </PopoverNotificationCenter>
  </NovuProvider>,
);
