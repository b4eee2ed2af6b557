import { ProviderError } from '../providers/provider.ts';
import { DEFAULT_SLACK_SCOPES, DEFAULT_SLACK_USER_SCOPES, exchangeSlackCode, slackAuthorizeUrl } from '../providers/chat/slack-oauth.ts';
import {
  adminConsentUrl,
  BOT_APP_MISSING,
  botAppOf,
  confirmTenantConsent,
  exchangeUserCode,
  TENANT_PATTERN,
  userSignInUrl,
} from '../providers/chat/msteams-identity.ts';
import type { StoredConnection } from './connection-repository.ts';
import type { OAuthCallbackQuery, Workspace } from './schemas.ts';

// Each chat provider's half of the OAuth flows (lib/channels/oauth.ts holds the rest: state,
// storage, redirects). Slack: "Add to Slack" gives the workspace's bot token; "Sign in with
// Slack" names a user. Microsoft Teams: a tenant administrator's consent names the tenant (no
// token is kept: the bot posts with its own), and an OpenID sign-in names a user of it.

export interface Install {
  workspace: Workspace;
  /** What the connection keeps as its token. */
  accessToken: string;
  /** Slack: the user who installed, linked too when asked (autoLinkUser). */
  authedUserId?: string;
}

/** A connection's token for a Teams tenant: none is kept; delivery uses the bot's own (docs/chat.md). */
export const TEAMS_APP_ONLY_TOKEN = 'app-only';

interface Flow {
  /** The credentials the flows need, said when one is missing. */
  missingCredentials(credentials: Record<string, unknown>): string | undefined;
  connectUrl(credentials: Record<string, unknown>, o: { state: string; redirectUri: string; scope?: readonly string[] }): string;
  completeConnect(credentials: Record<string, unknown>, query: OAuthCallbackQuery, redirectUri: string): Promise<Install>;
  userEndpointType: 'slack_user' | 'ms_teams_user';
  linkUserUrl(
    credentials: Record<string, unknown>,
    connection: StoredConnection,
    o: { state: string; redirectUri: string; userScope?: readonly string[] },
  ): string;
  /** The linked user's id in the provider (Slack user id; Azure AD object id). */
  completeLinkUser(
    credentials: Record<string, unknown>,
    connection: StoredConnection,
    query: OAuthCallbackQuery,
    redirectUri: string,
  ): Promise<string>;
}

const codeOf = (query: OAuthCallbackQuery): string => {
  if (!query.code) throw new ProviderError('no code given');
  return query.code;
};

const slack: Flow = {
  missingCredentials: (c) => (c.clientId && c.secretKey ? undefined : 'The integration needs the Slack app’s Client ID and Client Secret'),
  connectUrl: (c, o) => slackAuthorizeUrl(c, { ...o, scope: o.scope ?? DEFAULT_SLACK_SCOPES }),
  async completeConnect(c, query, redirectUri) {
    const install = await exchangeSlackCode(c, codeOf(query), redirectUri);
    if (!install.accessToken) throw new ProviderError('Slack gave no bot token: request bot scopes');
    return install;
  },
  userEndpointType: 'slack_user',
  linkUserUrl: (c, _connection, o) => slackAuthorizeUrl(c, { ...o, userScope: o.userScope ?? DEFAULT_SLACK_USER_SCOPES }),
  async completeLinkUser(c, connection, query, redirectUri) {
    const signedIn = await exchangeSlackCode(c, codeOf(query), redirectUri);
    if (!signedIn.authedUserId) throw new ProviderError('Slack named no user');
    if (signedIn.workspace.id !== connection.workspace.id) {
      throw new ProviderError(`the user signed in to workspace ${signedIn.workspace.id}, not ${connection.workspace.id}`);
    }
    return signedIn.authedUserId;
  },
};

const msteams: Flow = {
  missingCredentials: (c) => (botAppOf(c) ? undefined : BOT_APP_MISSING),
  // The permissions are the app registration's own (admin consent grants them all): `scope` is not used.
  connectUrl: (c, o) => adminConsentUrl(c, o),
  async completeConnect(c, query) {
    const tenant = query.tenant;
    if (query.admin_consent?.toLowerCase() !== 'true' || !tenant) throw new ProviderError('the administrator did not consent');
    if (!TENANT_PATTERN.test(tenant)) throw new ProviderError('Microsoft named no valid tenant');
    await confirmTenantConsent(c, tenant);
    return { workspace: { id: tenant }, accessToken: TEAMS_APP_ONLY_TOKEN };
  },
  userEndpointType: 'ms_teams_user',
  linkUserUrl: (c, connection, o) => userSignInUrl(c, connection.workspace.id, o),
  async completeLinkUser(c, connection, query, redirectUri) {
    const user = await exchangeUserCode(c, connection.workspace.id, codeOf(query), redirectUri);
    if (user.tid && user.tid !== connection.workspace.id) {
      throw new ProviderError(`the user signed in to tenant ${user.tid}, not ${connection.workspace.id}`);
    }
    return user.oid;
  },
};

const FLOWS: Record<string, Flow> = { slack, msteams };

export function flowOf(providerId: string): Flow {
  const flow = FLOWS[providerId];
  if (!flow) throw new Error(`No OAuth flow for provider ${providerId}`);
  return flow;
}
