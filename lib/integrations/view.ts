import type { StoredIntegration } from './repository.ts';
import type { Integration } from './schemas.ts';

/** The integration as the API shows it: the storage version stays inside. */
export function toIntegration({ version: _version, ...integration }: StoredIntegration): Integration {
  return integration;
}
