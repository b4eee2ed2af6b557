import { NotFoundError, ValidationError } from '../errors.ts';
import { listIntegrationsOfChannel, type StoredIntegration } from '../integrations/repository.ts';
import type { EnvScope } from '../scope.ts';

// The chat integration a connection or endpoint names by identifier, in the caller's environment.

export async function chatIntegrationOrFail(
  scope: EnvScope,
  identifier: string,
  providers?: readonly string[],
): Promise<StoredIntegration> {
  const integration = (await listIntegrationsOfChannel(scope, 'chat')).find((i) => i.identifier === identifier && !i.deleted);
  if (!integration) throw new NotFoundError(`Integration ${identifier} was not found`);
  if (providers && !providers.includes(integration.providerId)) {
    throw ValidationError.forField(
      'integrationIdentifier',
      `Integration ${identifier} is a ${integration.providerId} integration; channel connections are for ${providers.join(', ')}`,
      identifier,
    );
  }
  return integration;
}
