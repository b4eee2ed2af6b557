import { ForbiddenError, NotFoundError } from '../errors.ts';
import type { StoredIntegration } from '../integrations/repository.ts';
import type { EnvScope } from '../scope.ts';
import { receiptIntegration } from './integration.ts';
import type { ReceiptChannel, ReceiptRequest } from './model.ts';
import { recordReceipt, type RecordedReceipt } from './record.ts';
import { receiptReader } from './vendors/index.ts';

// A provider's POST to its receipt URL: the integration the URL names, the vendor's signature
// checked by its reader, then each receipt recorded. Receipts of messages this environment does
// not know are acknowledged without effect (vendors retry anything but a success).

export interface IncomingReceipts extends Omit<ReceiptRequest, 'integration'> {
  channel: ReceiptChannel;
  providerIdOrIntegrationId: string;
}

/** The reference's answer: each message a receipt was recorded on, with the status recorded. */
export async function receiveReceipts(scope: EnvScope, incoming: IncomingReceipts): Promise<{ id: string; event: string }[]> {
  const integration = await receiptIntegration(scope, incoming.channel, incoming.providerIdOrIntegrationId);
  const recorded = await recordIncoming(scope, integration, incoming.channel, incoming);
  return recorded.map(({ id, receipt }) => ({ id, event: receipt.status }));
}

/** Reads the receipts of a request to `integration` (of `channel`) and records each one. */
export async function recordIncoming(
  scope: EnvScope,
  integration: StoredIntegration,
  channel: ReceiptChannel,
  incoming: Omit<ReceiptRequest, 'integration'>,
): Promise<RecordedReceipt[]> {
  const reader = receiptReader(integration.providerId);
  if (!reader) throw new NotFoundError(`Provider ${integration.providerId} sends no delivery receipts this service reads`);
  if (integration.configurations?.inboundWebhookEnabled === false)
    throw new ForbiddenError('Inbound webhooks are disabled for this integration');
  const receipts = await reader.read({ integration, rawBody: incoming.rawBody, headers: incoming.headers, url: incoming.url });
  const recorded: RecordedReceipt[] = [];
  for (const receipt of receipts) recorded.push(...(await recordReceipt(scope, integration, channel, receipt)));
  return recorded;
}
