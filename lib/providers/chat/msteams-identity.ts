import { baseUrlOf } from '../base-url.ts';
import { objectOr } from '../deep-merge.ts';
import { callProvider } from '../http.ts';
import { ProviderError } from '../provider.ts';
import { cacheKey, cachedToken, forgetToken } from '../token-cache.ts';

// The Microsoft identity platform for a Teams bot (an Azure bot registration: the integration's
// clientId, secretKey and home tenantId). A customer's tenant is connected by admin consent (no
// code, no token kept: the callback names the tenant); a subscriber's own Teams user is linked by
// an OpenID sign-in whose id token names the user (oid) and tenant (tid); messages go through the
// Bot Framework with a token of the bot's own client credentials. The login origin is the
// integration's baseUrl, else PROVIDER_BASE_URL_MSTEAMS_LOGIN, else login.microsoftonline.com.

const GRAPH_DEFAULT_SCOPE = 'https://graph.microsoft.com/.default';
const BOT_FRAMEWORK_SCOPE = 'https://api.botframework.com/.default';
/** The delegated scopes of a user sign-in: who the user is, nothing more. */
export const USER_SIGN_IN_SCOPES = ['openid', 'profile', 'User.Read'];
/** Renewed this long before Microsoft's expiry. */
const MARGIN_MS = 5 * 60_000;

const loginOrigin = (credentials: Record<string, unknown>) => baseUrlOf('msteams-login', credentials, 'https://login.microsoftonline.com');
const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** A tenant as it may appear in a login URL's path: a GUID or a verified domain. */
export const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.-]{0,253}$/;

export interface BotApp {
  clientId: string;
  secretKey: string;
  /** The bot's home tenant: where its Bot Framework tokens come from. */
  tenantId: string;
}

export const BOT_APP_MISSING =
  'The Microsoft Teams integration needs its bot’s Microsoft App ID (clientId), Client Secret (secretKey) ' +
  'and Directory (tenant) ID (tenantId)';

/** The bot app of an integration's credentials; undefined when one of its three keys is missing. */
export function botAppOf(credentials: Record<string, unknown>): BotApp | undefined {
  const clientId = text(credentials.clientId);
  const secretKey = text(credentials.secretKey);
  const tenantId = text(credentials.tenantId);
  return clientId && secretKey && tenantId ? { clientId, secretKey, tenantId } : undefined;
}

/** The tenant-wide admin consent page (any organization's administrator may consent). */
export function adminConsentUrl(credentials: Record<string, unknown>, options: { state: string; redirectUri: string }): string {
  const url = new URL(`${loginOrigin(credentials)}/organizations/v2.0/adminconsent`);
  url.searchParams.set('client_id', text(credentials.clientId) ?? '');
  url.searchParams.set('scope', GRAPH_DEFAULT_SCOPE);
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('state', options.state);
  return url.toString();
}

/** The sign-in page of a user of `tenant`, to learn their Azure AD object id. */
export function userSignInUrl(
  credentials: Record<string, unknown>,
  tenant: string,
  options: { state: string; redirectUri: string },
): string {
  const url = new URL(`${loginOrigin(credentials)}/${encodeURIComponent(tenant)}/oauth2/v2.0/authorize`);
  url.searchParams.set('client_id', text(credentials.clientId) ?? '');
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('response_mode', 'query');
  url.searchParams.set('scope', USER_SIGN_IN_SCOPES.join(' '));
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('state', options.state);
  return url.toString();
}

/** A token request at `tenant`'s token endpoint; Microsoft's refusal as a ProviderError naming its error. */
async function tokenRequest(
  credentials: Record<string, unknown>,
  tenant: string,
  what: string,
  form: Record<string, string>,
): Promise<Record<string, unknown>> {
  try {
    const answer = await callProvider('Microsoft', {
      method: 'POST',
      url: `${loginOrigin(credentials)}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
      form: { client_id: text(credentials.clientId) ?? '', client_secret: text(credentials.secretKey) ?? '', ...form },
    });
    return objectOr(answer.body);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const body = objectOr(objectOr(error.raw).body);
    const reason = text(body.error) ?? error.message;
    throw new ProviderError(`Microsoft ${what}: ${reason}`, error.raw, error.transient);
  }
}

/**
 * Confirms an admin consented in `tenant`: the app gets a token of its own there only once its
 * service principal exists in that tenant (a forged `tenant` in the callback gets none).
 */
export async function confirmTenantConsent(credentials: Record<string, unknown>, tenant: string): Promise<void> {
  const body = await tokenRequest(credentials, tenant, `did not confirm the consent of tenant ${tenant}`, {
    grant_type: 'client_credentials',
    scope: GRAPH_DEFAULT_SCOPE,
  });
  if (!text(body.access_token)) throw new ProviderError(`Microsoft did not confirm the consent of tenant ${tenant}: no token given`, body);
}

export interface SignedInUser {
  /** The user's Azure AD object id: what the Bot Framework addresses them by. */
  oid: string;
  tid?: string;
  name?: string;
}

/** The code of a user sign-in exchanged for its id token; the token comes straight from Microsoft, so its claims are read as given. */
export async function exchangeUserCode(
  credentials: Record<string, unknown>,
  tenant: string,
  code: string,
  redirectUri: string,
): Promise<SignedInUser> {
  const body = await tokenRequest(credentials, tenant, 'refused the sign-in code', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    scope: USER_SIGN_IN_SCOPES.join(' '),
  });
  const claims = jwtClaims(body.id_token);
  const oid = text(claims.oid);
  if (!oid)
    throw new ProviderError('Microsoft gave no id token naming the user (oid)', { ...body, access_token: undefined, id_token: undefined });
  const tid = text(claims.tid);
  const name = text(claims.name);
  return { oid, ...(tid && { tid }), ...(name && { name }) };
}

function jwtClaims(token: unknown): Record<string, unknown> {
  if (typeof token !== 'string') return {};
  try {
    return objectOr(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')));
  } catch {
    return {};
  }
}

const botTokenKey = (credentials: Record<string, unknown>, app: BotApp) => cacheKey('msteams-bot', loginOrigin(credentials), app);

/** The bot's Bot Framework token (client credentials at its home tenant), reused until shortly before it expires. */
export function botFrameworkToken(credentials: Record<string, unknown>, app: BotApp): Promise<string> {
  return cachedToken(botTokenKey(credentials, app), async () => {
    const body = await tokenRequest(credentials, app.tenantId, 'refused the bot’s credentials', {
      grant_type: 'client_credentials',
      scope: BOT_FRAMEWORK_SCOPE,
    });
    const token = text(body.access_token);
    if (!token) throw new ProviderError('Microsoft gave no Bot Framework token', { ...body });
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in ?? 3600);
    return { token, expiresAt: Date.now() + Math.max(0, seconds * 1000 - MARGIN_MS) };
  });
}

/** The Bot Framework refused the token: the next send asks for a new one. */
export const forgetBotFrameworkToken = (credentials: Record<string, unknown>, app: BotApp) => forgetToken(botTokenKey(credentials, app));
