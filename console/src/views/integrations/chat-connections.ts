import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

// What the workspace-connections section of a chat integration's page reads and sends: the
// integration's channel connections and endpoints (their first page: the console shows an
// integration's, not a directory of every workspace), and the consent URL of the OAuth flow.

/** The chat providers whose workspaces connect through an OAuth flow, with the button's words. */
export const CONNECT_LABELS: Readonly<Record<string, string>> = { slack: 'Connect Slack', msteams: 'Connect Teams' };

export interface Connection {
  identifier: string;
  subscriberId: string | null;
  contextKeys: string[];
  workspace: { id: string; name?: string };
  auth: { accessToken: string };
  status: 'active' | 'revoked';
  revokedReason?: string;
  createdAt: string;
  updatedAt: string;
}

export interface Endpoint {
  identifier: string;
  type: string;
  endpoint: Record<string, unknown>;
  subscriberId: string | null;
  connectionIdentifier: string | null;
  contextKeys: string[];
}

interface Page<T> {
  data: T[];
  totalCount: number;
}

const PAGE = 100;

export const chatConnectionsKey = (environmentId: string, integrationIdentifier: string) =>
  ['chat-connections', environmentId, integrationIdentifier] as const;

export function useChatConnections(environmentId: string, integrationIdentifier: string) {
  return useQuery({
    queryKey: chatConnectionsKey(environmentId, integrationIdentifier),
    queryFn: async ({ signal }) => {
      const query = { integrationIdentifier, limit: PAGE };
      const [connections, endpoints] = await Promise.all([
        api<Page<Connection>>(environmentId, '/v1/channel-connections', { query, signal }),
        api<Page<Endpoint>>(environmentId, '/v1/channel-endpoints', { query, signal }),
      ]);
      return { connections, endpoints };
    },
  });
}

/** The provider's consent page for `subscriberId`'s workspace: where the button sends the browser. */
export async function consentUrl(environmentId: string, integrationIdentifier: string, subscriberId: string): Promise<string> {
  const { url } = await api<{ url: string }>(environmentId, '/v1/integrations/chat/oauth', {
    method: 'POST',
    body: { integrationIdentifier, subscriberId },
  });
  return url;
}

/** The outcome the OAuth callback appended to the Redirect URL, when this page is it. */
export type ConnectOutcome = { status: 'success'; connectionIdentifier: string } | { status: 'error'; reason: string } | undefined;

export function outcomeOf(search: URLSearchParams): ConnectOutcome {
  const status = search.get('status');
  if (status === 'success') return { status, connectionIdentifier: search.get('connectionIdentifier') ?? '' };
  if (status === 'error') return { status, reason: search.get('reason') ?? 'no reason given' };
  return undefined;
}

/** Where an endpoint posts, in words: the Slack channel or user, or the webhook's URL. */
export function endpointTarget(endpoint: Endpoint): string {
  const data = endpoint.endpoint;
  const first = data.channelId ?? data.userId ?? data.url;
  return typeof first === 'string' ? first : JSON.stringify(data);
}
