import type { RecordedRequest, Reply } from './provider-servers.ts';
import { rand } from './pipeline.ts';

// Microsoft as the Teams tests meet it, on a local HTTP stand-in (the msteams integration's
// baseUrl): the admin consent page, whose Accept link returns to the callback with the customer's
// tenant; the token endpoint, where the customer's tenant consented (the app gets a token there,
// any other tenant refuses), the bot's home tenant gives Bot Framework tokens and a user
// sign-in's code gives an id token; and the Bot Framework, which takes conversations and
// activities. Shared by test/integration/msteams-oauth.test.ts and the console's browser test.

/** The tenant whose administrator consented. */
export const CUSTOMER_TENANT = 'cust-tenant-0001';
/** The bot's own tenant (the integration's `tenantId`), where its Bot Framework token comes from. */
export const BOT_HOME_TENANT = 'bot-home-tenant';

export interface MicrosoftOptions {
  /** The signed-in user's id token claims (default: a user of the customer's tenant). */
  user?: Record<string, unknown>;
  /** A Bot Framework answer of the test's own, before the defaults. */
  bot?: (r: RecordedRequest) => Reply | undefined;
}

const idToken = (claims: Record<string, unknown>) =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

/** The stand-in's answers: set as a fake API's `reply`. */
export function microsoftReplies(options: MicrosoftOptions = {}): (r: RecordedRequest) => Reply {
  return (r) => {
    if (r.path.endsWith('/adminconsent')) return consentPage(r);
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(r.path);
    if (token) {
      const tenant = decodeURIComponent(token[1]!);
      if (r.form.get('grant_type') === 'authorization_code') {
        return {
          status: 200,
          body: { access_token: 'user-graph-token', id_token: idToken(options.user ?? { oid: 'aad-user-7', tid: CUSTOMER_TENANT }) },
        };
      }
      const scope = r.form.get('scope');
      if (tenant === BOT_HOME_TENANT && scope === 'https://api.botframework.com/.default')
        return { status: 200, body: { token_type: 'Bearer', expires_in: 3599, access_token: 'bot-framework-token' } };
      if (tenant === CUSTOMER_TENANT && scope === 'https://graph.microsoft.com/.default')
        return { status: 200, body: { token_type: 'Bearer', expires_in: 3599, access_token: 'customer-graph-token' } };
      return { status: 400, body: { error: 'invalid_client', error_description: `AADSTS700016: app not found in ${tenant}` } };
    }
    const own = options.bot?.(r);
    if (own) return own;
    if (r.path === '/teams/v3/conversations') return { status: 201, body: { id: `a:1on1-${r.json.members[0].id}` } };
    if (r.path.endsWith('/activities')) return { status: 201, body: { id: `activity-${rand()}` } };
    return { status: 404, body: {} };
  };
}

/** Where the tenant administrator's consent returns: the callback, with the tenant and the state. */
export function adminConsentReturn(redirectUri: string, state: string, tenant = CUSTOMER_TENANT): string {
  const back = new URL(redirectUri);
  back.searchParams.set('admin_consent', 'True');
  back.searchParams.set('tenant', tenant);
  back.searchParams.set('state', state);
  back.searchParams.set('scope', 'https://graph.microsoft.com/.default');
  return back.toString();
}

function consentPage(r: RecordedRequest): Reply {
  const back = adminConsentReturn(r.query.get('redirect_uri')!, r.query.get('state')!);
  // No favicon asked of the stand-in (it answers unknown paths 404, which the browser reports).
  const html = `<!doctype html><title>Permissions requested</title><link rel="icon" href="data:,">
    <h1>Acme bot asks for your organization's consent</h1>
    <p>Scope: ${r.query.get('scope')}</p><a href="${back.replace(/&/g, '&amp;')}">Accept</a>`;
  return { status: 200, headers: { 'content-type': 'text/html' }, body: html };
}
