import { createHmac } from 'node:crypto';
import type { ProviderRequest } from './http.ts';

// Webhook providers (chat-webhook, push-webhook) sign what they POST so the receiver can tell the
// request came from us: header `x-signature-sha256` = hex HMAC-SHA256 of the exact body bytes,
// keyed with the integration's secret (`credentials.secretKey`).

export const SIGNATURE_HEADER = 'x-signature-sha256';

export function signBody(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/** The request with its JSON as the body, signed when there is a secret; done last, over the bytes sent. */
export function signedJson(request: ProviderRequest, secret: string | undefined): ProviderRequest {
  const { json, ...rest } = request;
  const body = JSON.stringify(json ?? {});
  return {
    ...rest,
    headers: { ...rest.headers, 'content-type': 'application/json', ...(secret && { [SIGNATURE_HEADER]: signBody(body, secret) }) },
    body,
  };
}
