import { publicBaseUrl } from '../http/public-url.ts';

// Where a provider posts an integration's delivery events: the SDK's receipts route
// (`activity.track`, infra/routes/receipts.ts), absolute on the stage's public origin.

export function receiptsUrl(headers: Record<string, string | undefined>, environmentId: string, integrationId: string): string {
  const path = `${encodeURIComponent(environmentId)}/${encodeURIComponent(integrationId)}`;
  return `${publicBaseUrl(headers)}/v2/inbound-webhooks/delivery-providers/${path}`;
}
