import { createHash, createHmac, randomUUID } from 'node:crypto';
import { withScheme } from '../base-url.ts';
import { callProvider, withProviderData } from '../http.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { delivered, valueAt } from '../result.ts';
import { smsMessage } from './message.ts';

// Azure Communication Services SMS (REST, api-version 2021-03-07), signed with the resource's
// access key (HMAC-SHA256 over method, path and query, date, host and body hash), as its SDK
// does. The integration's connection string names the resource's endpoint and key. A
// repeatability id makes Azure send once when a retry repeats the request. It answers 202 with
// a verdict per recipient: one not `successful` fails with its errorMessage.

const NAME = 'Azure SMS';

export interface AzureConnection {
  endpoint: string;
  accessKey: Buffer;
}

/** `endpoint=https://<resource>.communication.azure.com/;accesskey=<base64>`; throws with the reason. */
export function parseAzureConnectionString(value: unknown): AzureConnection {
  const parts = new Map<string, string>();
  for (const part of String(value ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) parts.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  const endpoint = parts.get('endpoint');
  const key = parts.get('accesskey');
  if (!endpoint || !key)
    throw new Error('accessKey must be a connection string: endpoint=https://<resource>.communication.azure.com/;accesskey=<key>');
  let url: URL;
  try {
    url = new URL(withScheme(endpoint));
  } catch {
    throw new Error("the connection string's endpoint must be a URL");
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error("the connection string's endpoint must be an http(s) URL");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key)) throw new Error("the connection string's accesskey must be base64");
  return { endpoint: url.origin, accessKey: Buffer.from(key, 'base64') };
}

function signedHeaders(connection: AzureConnection, url: URL, body: string): Record<string, string> {
  const date = new Date().toUTCString();
  const contentHash = createHash('sha256').update(body).digest('base64');
  const toSign = `POST\n${url.pathname}${url.search}\n${date};${url.host};${contentHash}`;
  const signature = createHmac('sha256', connection.accessKey).update(toSign).digest('base64');
  return {
    'x-ms-date': date,
    'x-ms-content-sha256': contentHash,
    authorization: `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${signature}`,
    'repeatability-request-id': randomUUID(),
    'repeatability-first-sent': date,
  };
}

async function send(delivery: Delivery): Promise<DeliveryResult> {
  let connection: AzureConnection;
  try {
    connection = parseAzureConnectionString(delivery.integration.credentials.accessKey);
  } catch (error) {
    throw new ProviderError(`${NAME} was not called: ${(error as Error).message}`);
  }
  const sms = smsMessage(delivery);
  const request = withProviderData(
    {
      url: `${connection.endpoint}/sms`,
      query: { 'api-version': '2021-03-07' },
      json: {
        from: sms.from ?? '',
        smsRecipients: [{ to: sms.to }],
        message: sms.content,
        smsSendOptions: { enableDeliveryReport: false },
      },
    },
    delivery.providerData,
  );
  // The signature covers the final path, query and body, so they are settled before signing.
  const url = new URL(request.url);
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.append(key, value);
  const body = JSON.stringify(request.json);
  const headers = { ...request.headers, 'content-type': 'application/json', ...signedHeaders(connection, url, body) };
  const answer = await callProvider(NAME, { url: url.toString(), headers, body });
  const result = valueAt(answer.body, 'value.0') as { successful?: boolean; messageId?: string; errorMessage?: string } | undefined;
  if (result?.successful === false) {
    throw new ProviderError(`${NAME} did not send the message: ${result.errorMessage ?? 'not successful'}`, {
      status: answer.status,
      body: answer.body,
    });
  }
  return delivered(NAME, result?.messageId, answer.body);
}

export const azureSmsProvider: DeliveryProvider = { send };
