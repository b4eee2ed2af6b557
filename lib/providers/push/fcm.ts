import { baseUrlOf } from '../base-url.ts';
import { deepMerge, objectOr } from '../deep-merge.ts';
import { callProvider, withProviderData, type ProviderAnswer } from '../http.ts';
import { messageOverrides, pushContent } from '../message-overrides.ts';
import { ProviderError, type ConnectionTarget, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { forgetGoogleAccessToken, googleAccessToken, parseServiceAccount } from './google-oauth.ts';
import { InvalidTokenError } from './invalid-token.ts';

// Firebase Cloud Messaging, HTTP v1 API: POST /v1/projects/<project>/messages:send with a
// service-account access token, one message per device token: {token, notification: {title,
// body}, data}. Overrides merge into the message (android, apns, webpush, fcm_options...).

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/** Getting an access token proves the service account works, without sending anything. */
export async function checkFcmConnection({ credentials }: ConnectionTarget): Promise<void> {
  await googleAccessToken(parseServiceAccount(objectOr(credentials).serviceAccount), SCOPE);
}

export const fcm: DeliveryProvider = {
  async send(delivery: Delivery): Promise<DeliveryResult> {
    const c = delivery.integration.credentials as Record<string, unknown>;
    const account = parseServiceAccount(c.serviceAccount);
    const { title, body, data } = pushContent(delivery);
    // FCM data is a map of strings.
    const strings = Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
    const message = deepMerge(
      {
        token: delivery.to,
        notification: { ...(title && { title }), body },
        ...(strings.length > 0 && { data: Object.fromEntries(strings) }),
      },
      messageOverrides(delivery),
    );
    const url = `${baseUrlOf('fcm', c, 'https://fcm.googleapis.com')}/v1/projects/${encodeURIComponent(account.projectId)}/messages:send`;

    const send = async (): Promise<ProviderAnswer> =>
      callProvider(
        'FCM',
        withProviderData(
          { url, headers: { authorization: `Bearer ${await googleAccessToken(account, SCOPE)}` }, json: { message } },
          delivery.providerData,
        ),
      );
    let answer: ProviderAnswer;
    try {
      answer = await send().catch(async (error: unknown) => {
        // A revoked or expired access token: get a new one and try once more.
        if (statusOf(error) !== 401) throw error;
        forgetGoogleAccessToken(account, SCOPE);
        return send();
      });
    } catch (error) {
      throw invalidToken(error, delivery.to) ?? error;
    }
    const name = (answer.body as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') throw new ProviderError('FCM gave no message name', { status: answer.status, body: answer.body });
    return { id: name, raw: { status: answer.status, body: answer.body } };
  },
};

const statusOf = (error: unknown): number | undefined =>
  error instanceof ProviderError ? (objectOr(error.raw).status as number | undefined) : undefined;

/** UNREGISTERED, or INVALID_ARGUMENT about the token itself (not some other field of the message). */
function invalidToken(error: unknown, token: string): InvalidTokenError | undefined {
  if (!(error instanceof ProviderError)) return undefined;
  const failure = objectOr(objectOr(objectOr(error.raw).body).error);
  const details = Array.isArray(failure.details) ? failure.details.map(objectOr) : [];
  const codes = details.map((d) => d.errorCode);
  const violations = details.flatMap((d) => (Array.isArray(d.fieldViolations) ? d.fieldViolations.map(objectOr) : []));
  const unregistered = codes.includes('UNREGISTERED') || failure.status === 'UNREGISTERED';
  const badToken =
    (failure.status === 'INVALID_ARGUMENT' || codes.includes('INVALID_ARGUMENT')) &&
    (violations.some((v) => v.field === 'message.token') || /registration token/i.test(String(failure.message ?? '')));
  return unregistered || badToken ? new InvalidTokenError(error.message, error.raw, token) : undefined;
}
