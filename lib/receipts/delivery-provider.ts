import { NotFoundError } from '../errors.ts';
import { getIntegration } from '../integrations/repository.ts';
import { isId } from '../ids.ts';
import { findEnvironmentById } from '../accounts/environment-lookup.ts';
import type { ReceiptRequest } from './model.ts';
import { recordIncoming } from './receive.ts';
import type { DeliveryEvent } from './schemas.ts';

// The SDK's route for a provider's delivery events (`activity.track`:
// /v2/inbound-webhooks/delivery-providers/{environmentId}/{integrationId}): the same receipts as
// the older URL, which names the organization and the channel; here the environment is looked
// up by its id and the channel is the integration's. Answered in the SDK's WebhookResultDto shape.

export async function receiveDeliveryEvents(
  environmentId: string,
  integrationId: string,
  incoming: Omit<ReceiptRequest, 'integration'>,
): Promise<DeliveryEvent[]> {
  const notFound = new NotFoundError(`Integration ${integrationId} not found`);
  const scope = isId(environmentId) ? await findEnvironmentById(environmentId) : undefined;
  const integration = scope && isId(integrationId) ? await getIntegration(scope.organizationId, integrationId) : undefined;
  if (!scope || !integration || integration._environmentId !== scope.environmentId) throw notFound;
  const { channel } = integration;
  if (channel !== 'email' && channel !== 'sms') throw notFound;
  const recorded = await recordIncoming(scope, integration, channel, incoming);
  return recorded.map(({ id, receipt }) => ({
    id,
    event: {
      status: receipt.status,
      date: receipt.date,
      externalId: receipt.identifier,
      ...(receipt.response !== undefined && { response: receipt.response }),
      row: JSON.stringify(receipt.raw),
    },
  }));
}
