import { Inbox, InboxContent } from '@novu/react';
import { useQuery } from '@tanstack/react-query';
import { consoleConfig } from '../../api/config.ts';
import { ErrorNote, QueryState } from '../../components/states.tsx';
import { keyFor } from '../../session/session.ts';
import { useEnvironment } from '../../session/use-session.ts';
import { subscriberHash } from './subscriber-hash.ts';

// The subscriber's inbox as their product shows it: the reference's own <Inbox /> pointed at this
// service (docs/inbox.md), rendered open (its inline content, not the bell) and live over the
// socket. Loaded lazily (SubscriberPage): @novu/react is the console's largest dependency.

interface InboxSettings {
  socketUrl: string;
  subscriberHash: string | undefined;
}

export default function SubscriberInbox({ environmentId, subscriberId }: { environmentId: string; subscriberId: string }) {
  const { environment } = useEnvironment(environmentId);
  const settings = useQuery({
    queryKey: ['subscriber-inbox-settings', environmentId, subscriberId],
    queryFn: async (): Promise<InboxSettings> => {
      const apiKey = keyFor(environmentId);
      if (!apiKey) throw new Error('Not signed in to this environment');
      const [{ socketUrl }, hash] = await Promise.all([consoleConfig(), subscriberHash(apiKey, subscriberId)]);
      // Without one, the client would dial the reference's cloud socket instead of this service's.
      if (!socketUrl) throw new Error('The deployment names no WebSocket URL (LIVE_SOCKET_URL), so the live inbox cannot connect.');
      return { socketUrl, subscriberHash: hash };
    },
  });
  if (!environment) return <ErrorNote error="This environment's application identifier is unknown: sign in again." title="No inbox" />;
  return (
    <QueryState query={settings} what="the inbox">
      {({ socketUrl, subscriberHash: hash }) => (
        <div className="subscriber-inbox">
          <Inbox
            applicationIdentifier={environment.applicationIdentifier}
            subscriber={subscriberId}
            {...(hash && { subscriberHash: hash })}
            backendUrl={location.origin}
            socketUrl={socketUrl}
            socketOptions={{ socketType: 'cloud' }}
          >
            <InboxContent />
          </Inbox>
        </div>
      )}
    </QueryState>
  );
}
