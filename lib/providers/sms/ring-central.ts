import { baseUrlOf } from '../base-url.ts';
import { basicAuth, callProvider, checkCall, withProviderData, type ProviderRequest } from '../http.ts';
import { ProviderError, type ConnectionTarget, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { cacheKey, cachedToken, forgetToken } from '../token-cache.ts';
import { smsMessage } from './message.ts';

// RingCentral SMS API: the app's JWT credential is exchanged for an access token (OAuth JWT
// bearer grant, Basic auth with the client id and secret), reused until a minute before it
// expires; then the SMS goes from the extension's number. `secure` picks the sandbox (devtest)
// platform, as the reference's "Is sandbox" switch.

const NAME = 'RingCentral';
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const MARGIN_MS = 60_000;

const server = (c: Record<string, unknown>) =>
  baseUrlOf('ring-central', c, c.secure === true ? 'https://platform.devtest.ringcentral.com' : 'https://platform.ringcentral.com');

function tokenRequest(c: Record<string, unknown>): ProviderRequest {
  return {
    url: `${server(c)}/restapi/oauth/token`,
    headers: { authorization: basicAuth(String(c.clientId ?? ''), String(c.secretKey ?? '')) },
    form: { grant_type: GRANT_TYPE, assertion: String(c.token ?? '') },
  };
}

const keyOf = (c: Record<string, unknown>) => cacheKey('ring-central', server(c), c.clientId, c.secretKey, c.token);

function accessToken(c: Record<string, unknown>): Promise<string> {
  return cachedToken(keyOf(c), async () => {
    const now = Date.now();
    const answer = await callProvider(NAME, tokenRequest(c));
    const body = answer.body as { access_token?: unknown; expires_in?: unknown };
    if (typeof body?.access_token !== 'string')
      throw new ProviderError(`${NAME} gave no access token`, { status: answer.status, body: answer.body });
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    return { token: body.access_token, expiresAt: now + Math.max(lifetimeMs - MARGIN_MS, 0) };
  });
}

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const c = delivery.integration.credentials;
  const sms = smsMessage(delivery);
  const post = async () =>
    callProvider(
      NAME,
      withProviderData(
        {
          url: `${server(c)}/restapi/v1.0/account/~/extension/~/sms`,
          headers: { authorization: `Bearer ${await accessToken(c)}` },
          json: { from: { phoneNumber: sms.from ?? '' }, to: [{ phoneNumber: sms.to }], text: sms.content },
        },
        delivery.providerData,
      ),
    );
  const answer = await post().catch((error: unknown) => {
    // A revoked or expired access token: get a new one and try once more.
    if (!(error instanceof ProviderError) || valueAt(error.raw, 'status') !== 401) throw error;
    forgetToken(keyOf(c));
    return post();
  });
  return delivered(NAME, valueAt(answer.body, 'id'), answer.body);
}

/** Exchanges the JWT for an access token: signs in, sends nothing. */
export async function checkRingCentralConnection(integration: ConnectionTarget): Promise<void> {
  await checkCall(NAME, { method: 'POST', ...tokenRequest(integration.credentials) });
}

export const ringCentralProvider: DeliveryProvider = { send };
