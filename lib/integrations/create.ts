import type { Caller } from '../auth/caller.ts';
import { ValidationError } from '../errors.ts';
import { newId } from '../ids.ts';
import { NO_MOVE, planMove } from './channel-order.ts';
import { checkConnection } from './connection-check.ts';
import { assertCredentialsComplete } from './credentials.ts';
import { newIdentifier } from './identifier.ts';
import { findProvider } from './catalogue.ts';
import { writeIntegration } from './repository.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import type { CreateIntegrationInput, Integration } from './schemas.ts';
import { resolveEnvironment } from './target-environment.ts';
import { toIntegration } from './view.ts';

export async function createIntegration(caller: Caller, input: CreateIntegrationInput): Promise<Integration> {
  const provider = findProvider(input.providerId);
  if (!provider) throw ValidationError.forField('providerId', `Unknown provider ${input.providerId}`, input.providerId);
  if (provider.channel !== input.channel) {
    throw ValidationError.forField('channel', `${provider.id} is a ${provider.channel} provider`, input.channel);
  }
  const environmentId = await resolveEnvironment(caller, input._environmentId);
  const credentials = input.credentials ?? {};
  const active = input.active ?? false;
  if (active) {
    assertCredentialsComplete(provider, credentials);
  }
  if (input.check) await checkConnection(provider.id, credentials);

  const now = new Date().toISOString();
  const integration: Integration = {
    _id: newId(Date.parse(now)),
    _environmentId: environmentId,
    _organizationId: caller.organizationId,
    name: input.name ?? provider.displayName,
    identifier: input.identifier ?? newIdentifier(provider.id),
    providerId: provider.id,
    channel: provider.channel,
    credentials,
    active,
    deleted: false,
    primary: false,
    priority: 0,
    conditions: input.conditions ?? [],
    createdAt: now,
    updatedAt: now,
  };
  if (input.configurations) integration.configurations = input.configurations;

  return retryOnStaleWrite(async () => {
    const scope = { organizationId: caller.organizationId, environmentId };
    // A new active email/sms integration becomes primary when its channel has none.
    const plan = active ? await planMove(scope, provider.channel, { kind: 'activate', id: integration._id }) : NO_MOVE;
    const saved = await writeIntegration({
      save: { ...integration, ...plan.self },
      reorder: plan.reorder,
      channelOrders: plan.channelOrders,
      claimIdentifier: integration.identifier,
    });
    return toIntegration(saved);
  });
}
