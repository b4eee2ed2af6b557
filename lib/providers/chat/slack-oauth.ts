import { baseUrlOf } from '../base-url.ts';
import { objectOr } from '../deep-merge.ts';
import { callProvider } from '../http.ts';
import { ProviderError } from '../provider.ts';

// Slack's OAuth v2 ("Add to Slack"): the authorize page the browser is sent to, and the code
// exchanged for the workspace's bot token (oauth.v2.access, the app's client id and secret as
// form fields). The origin is the integration's baseUrl, else PROVIDER_BASE_URL_SLACK, else slack.com.

export const DEFAULT_SLACK_SCOPES = ['chat:write', 'chat:write.public', 'channels:read', 'groups:read', 'users:read', 'users:read.email'];
/** "Sign in with Slack" for linking a user: who they are, nothing more. */
export const DEFAULT_SLACK_USER_SCOPES = ['identity.basic'];

const origin = (credentials: Record<string, unknown>) => baseUrlOf('slack', credentials, 'https://slack.com');

export function slackAuthorizeUrl(
  credentials: Record<string, unknown>,
  options: { state: string; redirectUri: string; scope?: readonly string[]; userScope?: readonly string[] },
): string {
  const url = new URL(`${origin(credentials)}/oauth/v2/authorize`);
  url.searchParams.set('client_id', String(credentials.clientId ?? ''));
  if (options.scope) url.searchParams.set('scope', options.scope.join(','));
  if (options.userScope) url.searchParams.set('user_scope', options.userScope.join(','));
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('state', options.state);
  return url.toString();
}

export interface SlackInstall {
  accessToken: string;
  workspace: { id: string; name?: string; botUserId?: string };
  authedUserId?: string;
}

export async function exchangeSlackCode(credentials: Record<string, unknown>, code: string, redirectUri: string): Promise<SlackInstall> {
  const answer = await callProvider('Slack', {
    method: 'POST',
    url: `${origin(credentials)}/api/oauth.v2.access`,
    form: {
      client_id: String(credentials.clientId ?? ''),
      client_secret: String(credentials.secretKey ?? ''),
      code,
      redirect_uri: redirectUri,
    },
  });
  const body = objectOr(answer.body);
  // A user sign-in ("Sign in with Slack", user scopes only) gives the user's token alone.
  const user = objectOr(body.authed_user);
  if (body.ok !== true || (typeof body.access_token !== 'string' && typeof user.access_token !== 'string')) {
    throw new ProviderError(`Slack refused the code: ${typeof body.error === 'string' ? body.error : 'no token given'}`, answer.body);
  }
  const team = objectOr(body.team);
  return {
    accessToken: typeof body.access_token === 'string' ? body.access_token : '',
    workspace: {
      id: typeof team.id === 'string' ? team.id : 'unknown',
      ...(typeof team.name === 'string' && { name: team.name }),
      ...(typeof body.bot_user_id === 'string' && { botUserId: body.bot_user_id }),
    },
    ...(typeof user.id === 'string' && { authedUserId: user.id }),
  };
}
