import type { EnvScope } from '../scope.ts';
import { listIntegrationsOfOrganization } from './repository.ts';
import type { Integration } from './schemas.ts';
import { toIntegration } from './view.ts';

/** Integrations of every environment of the caller's organization, as the reference lists them. */
export async function listIntegrations(caller: EnvScope): Promise<Integration[]> {
  return (await listIntegrationsOfOrganization(caller.organizationId)).map(toIntegration);
}

/** The active ones among them (GET /v1/integrations/active), organization-wide as the list. */
export async function listActiveIntegrations(caller: EnvScope): Promise<Integration[]> {
  return (await listIntegrations(caller)).filter((integration) => integration.active);
}
