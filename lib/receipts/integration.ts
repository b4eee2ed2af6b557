import { getIntegration, listIntegrationsOfChannel, type StoredIntegration } from '../integrations/repository.ts';
import { NotFoundError } from '../errors.ts';
import { isId } from '../ids.ts';
import type { EnvScope } from '../scope.ts';
import type { ReceiptChannel } from './model.ts';

// The integration a receipt URL names: by its id, or by its provider id (the environment's
// integration of that provider and channel, the active one first), as the reference reads it.

export async function receiptIntegration(
  scope: EnvScope,
  channel: ReceiptChannel,
  providerIdOrIntegrationId: string,
): Promise<StoredIntegration> {
  // A provider id (`sendgrid`, `infobip-sms`) is never shaped like a record id: only an id is read as one.
  const byId = isId(providerIdOrIntegrationId) ? await getIntegration(scope.organizationId, providerIdOrIntegrationId) : undefined;
  if (byId && byId._environmentId === scope.environmentId && byId.channel === channel) return byId;
  const ofProvider = (await listIntegrationsOfChannel(scope, channel)).filter((i) => i.providerId === providerIdOrIntegrationId);
  const found = ofProvider.find((i) => i.active) ?? ofProvider[0];
  if (!found) throw new NotFoundError(`Integration ${providerIdOrIntegrationId} not found`);
  return found;
}
