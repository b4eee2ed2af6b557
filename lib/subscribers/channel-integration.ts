import { BadRequestError } from '../errors.ts';
import { findProvider } from '../integrations/catalogue.ts';
import { listIntegrationsOfChannel, type StoredIntegration } from '../integrations/repository.ts';
import type { EnvScope } from '../scope.ts';

/**
 * The integration a subscriber's credentials belong to: the active one of the caller's
 * environment with that provider (and identifier, if given); of several, the newest, as the
 * reference picks. None is a 400.
 */
export async function findChannelIntegration(
  scope: EnvScope,
  providerId: string,
  integrationIdentifier?: string,
): Promise<StoredIntegration> {
  const provider = findProvider(providerId);
  const candidates = provider
    ? (await listIntegrationsOfChannel(scope, provider.channel)).filter(
        (i) => i.providerId === providerId && i.active && (integrationIdentifier === undefined || i.identifier === integrationIdentifier),
      )
    : [];
  const newest = candidates.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id))[0];
  if (!newest) {
    throw new BadRequestError(`Subscribers environment (${scope.environmentId}) do not have active ${providerId} integration.`);
  }
  return newest;
}
