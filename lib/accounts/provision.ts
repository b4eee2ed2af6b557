import type { Caller } from '../auth/caller.ts';
import { issueApiKey } from '../auth/api-keys.ts';
import { newId } from '../ids.ts';
import { createIntegration } from '../integrations/create.ts';
import { BUILT_IN_LAYOUT_HTML, DEFAULT_LAYOUT } from '../layouts/built-in.ts';
import { addLayout } from '../layouts/add.ts';
import { newApplicationIdentifier, putEnvironment, putOrganization, type Environment, type Organization } from './environments.ts';

// A new organization starts as the reference's does: a Development and a Production environment,
// an API key for each, and in each the integrations a new environment gets: the in-app inbox and
// the demo email and sms providers, active, so a first trigger delivers somewhere; and a default
// layout, the one emails were sent in before layouts were a resource, there to be edited.

export const DEFAULT_ENVIRONMENTS = ['Development', 'Production'] as const;

const STARTER_INTEGRATIONS = [
  { providerId: 'svc', channel: 'in_app' },
  { providerId: 'svc-email', channel: 'email' },
  { providerId: 'svc-sms', channel: 'sms' },
] as const;

export interface ProvisionedEnvironment {
  environment: Environment;
  apiKey: string;
}

export interface ProvisionedOrganization {
  organization: Organization;
  ownerId: string;
  environments: ProvisionedEnvironment[];
}

/**
 * `apiRateLimits`: the organization's own API rate limits (requests per second by category), in
 * place of the stage's for every environment (lib/rate-limits). `createdAt`: when it is made, now
 * unless told (tests make organizations that existed before the records they seed).
 */
export async function provisionOrganization(
  name: string,
  options: Pick<Organization, 'apiRateLimits'> & { createdAt?: Date } = {},
): Promise<ProvisionedOrganization> {
  const now = (options.createdAt ?? new Date()).toISOString();
  const organization: Organization = {
    _id: newId(Date.parse(now)),
    name,
    createdAt: now,
    ...(options.apiRateLimits && { apiRateLimits: options.apiRateLimits }),
  };
  const ownerId = newId();
  await putOrganization(organization);

  const environments: ProvisionedEnvironment[] = [];
  for (const envName of DEFAULT_ENVIRONMENTS) {
    // Each after the first is made beside the first (Production's parent is Development).
    const parentId = environments[0]?.environment._id;
    environments.push(
      await provisionEnvironment(organization._id, ownerId, envName, parentId, options.createdAt ? { createdAt: now } : {}),
    );
  }
  return { organization, ownerId, environments };
}

export async function provisionEnvironment(
  organizationId: string,
  ownerId: string,
  name: string,
  parentId?: string,
  extra: Partial<Pick<Environment, 'color' | 'createdAt'>> = {},
): Promise<ProvisionedEnvironment> {
  const now = extra.createdAt ?? new Date().toISOString();
  const environment: Environment = {
    _id: newId(Date.parse(now)),
    _organizationId: organizationId,
    name,
    identifier: newApplicationIdentifier(),
    ...(parentId !== undefined && { _parentId: parentId }),
    ...(extra.color !== undefined && { color: extra.color }),
    createdAt: now,
  };
  await putEnvironment(environment);
  const owner: Caller = { organizationId, environmentId: environment._id, userId: ownerId };
  const apiKey = await issueApiKey(owner);
  for (const starter of STARTER_INTEGRATIONS) {
    await createIntegration(owner, { ...starter, active: true });
  }
  await addLayout(owner, { ...DEFAULT_LAYOUT, controlValues: { email: { body: BUILT_IN_LAYOUT_HTML, editorType: 'html' } } });
  return { environment, apiKey };
}
