import { findProvider } from '../../integrations/catalogue.ts';
import type { StoredIntegration } from '../../integrations/repository.ts';
import type { ExecutionDetail } from '../model.ts';
import { DETAILS, detail } from '../details.ts';

/** The "<provider> provider was selected" detail a channel step records before it sends, naming the integration. */
export function providerSelected(integration: StoredIntegration, now: Date): ExecutionDetail {
  const { providerId, identifier, name, _environmentId, _id } = integration;
  return detail(
    DETAILS.providerSelected(findProvider(providerId)?.displayName ?? providerId),
    'Pending',
    { providerId, raw: { providerId, identifier, name, _environmentId, _id } },
    now,
  );
}
