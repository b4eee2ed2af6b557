import type { Caller } from '../auth/caller.ts';
import { liveApiKeyItems } from '../auth/api-keys.ts';
import { tableName } from '../config.ts';
import { BadRequestError, ConflictError } from '../errors.ts';
import { batchDelete } from '../store/batch.ts';
import { keys } from '../store/keys.ts';
import { transact } from '../store/transact.ts';
import { isProtectedEnvironmentName } from './environments.ts';
import { requireOwnEnvironment } from './own-environment.ts';

// DELETE /v1/environments/{environmentId}: a custom environment, by an API key of its own (an API
// key acts for its own environment only); Development and Production are never deleted. Its API
// keys go first, so nothing can act in it once it is gone, then the environment, the marker of
// its name and its application identifier, together. What it held (workflows, subscribers,
// messages) is left unreachable: no key, session or identifier leads to it any more.

export async function deleteEnvironment(caller: Caller, environmentId: string): Promise<void> {
  const environment = await requireOwnEnvironment(caller, environmentId, 'delete');
  if (isProtectedEnvironmentName(environment.name)) {
    throw new BadRequestError(
      `The ${environment.name} environment is protected and cannot be deleted. Only custom environments can be deleted.`,
    );
  }
  const apiKeys = await liveApiKeyItems(caller, Number.NEGATIVE_INFINITY);
  await batchDelete(apiKeys.map((item) => keys.apiKey(item.hash)));
  const refused = await transact(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: keys.environment(environment._organizationId, environment._id),
          ConditionExpression: 'identifier = :identifier AND #name = :name',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':identifier': environment.identifier, ':name': environment.name },
        },
      },
      { Delete: { TableName: tableName(), Key: keys.environmentName(environment._organizationId, environment.name) } },
      { Delete: { TableName: tableName(), Key: keys.applicationIdentifier(environment.identifier) } },
    ],
    { answers: ['ConditionalCheckFailed'] },
  );
  if (refused) throw new ConflictError('The environment changed while deleting; try again');
}
