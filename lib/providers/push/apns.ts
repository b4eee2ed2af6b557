import { randomUUID } from 'node:crypto';
import { baseUrlOf } from '../base-url.ts';
import { deepMerge, objectOr } from '../deep-merge.ts';
import { withProviderData } from '../http.ts';
import { messageOverrides, pushContent } from '../message-overrides.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { apnsToken, forgetApnsToken, type ApnsKey } from './apns-token.ts';
import { requestHttp2, type Http2Answer } from './http2-request.ts';
import { InvalidTokenError } from './invalid-token.ts';

// Apple Push Notification service over HTTP/2 with token auth: POST /3/device/<token> to the
// production host when the integration says so (`secure`), else the sandbox. The payload is
// {aps: {alert: {title, body}}} plus the data keys; overrides merge into it (aps.sound,
// aps.badge...), and provider data `_passthrough.headers` set APNs headers (apns-priority...).

const PRODUCTION = 'https://api.push.apple.com';
const SANDBOX = 'https://api.sandbox.push.apple.com';
/** Reasons meaning the token will never work again (400 BadDeviceToken, 410 Unregistered/ExpiredToken). */
const DEAD_TOKEN_REASONS = new Set(['BadDeviceToken', 'Unregistered', 'ExpiredToken']);
/** Our signed token was refused: a fresh one may work. */
const STALE_AUTH_REASONS = new Set(['ExpiredProviderToken', 'InvalidProviderToken']);

export const apns: DeliveryProvider = {
  async send(delivery: Delivery): Promise<DeliveryResult> {
    const c = delivery.integration.credentials as Record<string, unknown>;
    const key: ApnsKey = { privateKey: String(c.secretKey ?? ''), keyId: String(c.apiKey ?? ''), teamId: String(c.projectName ?? '') };
    const origin = apnsOrigin(c);
    const { title, body, data } = pushContent(delivery);
    const payload = deepMerge({ ...data, aps: { alert: { ...(title && { title }), body } } }, messageOverrides(delivery));
    const base = { 'apns-topic': String(c.applicationId ?? ''), 'apns-push-type': 'alert', 'content-type': 'application/json' };
    const request = withProviderData({ url: origin, headers: base, json: payload }, delivery.providerData);
    const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

    const send = async (): Promise<Http2Answer> =>
      requestHttp2(
        'APNs',
        origin,
        {
          ...headers,
          ':path': `/3/device/${encodeURIComponent(delivery.to)}`,
          authorization: `bearer ${await apnsToken(key)}`,
        },
        JSON.stringify(request.json),
      );

    let answer = await send();
    if (answer.status === 403 && STALE_AUTH_REASONS.has(reasonOf(answer))) {
      forgetApnsToken(key);
      answer = await send();
    }
    if (answer.status === 200) {
      const id = answer.headers['apns-id'];
      return { id: typeof id === 'string' && id ? id : randomUUID(), raw: { status: 200, 'apns-id': id ?? null } };
    }
    const reason = reasonOf(answer);
    const raw = { status: answer.status, body: answer.body };
    const message = `APNs answered ${answer.status}${reason ? `: ${reason}` : ''}`;
    if (answer.status === 410 || DEAD_TOKEN_REASONS.has(reason)) throw new InvalidTokenError(message, raw, delivery.to);
    throw new ProviderError(message, raw);
  },
};

/** Production (`secure: true`) or sandbox, unless the endpoint is overridden. */
export const apnsOrigin = (c: Record<string, unknown>): string => baseUrlOf('apns', c, c.secure === true ? PRODUCTION : SANDBOX);

const reasonOf = (answer: Http2Answer): string => String(objectOr(answer.body).reason ?? '');
