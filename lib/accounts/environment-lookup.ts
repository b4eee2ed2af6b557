import type { EnvScope } from '../scope.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';

/** The scope of an environment named by its id alone (written with the environment: environments.ts). */
export async function findEnvironmentById(environmentId: string): Promise<EnvScope | undefined> {
  const item = await getItem(keys.environmentById(environmentId));
  return item && { organizationId: item.organizationId as string, environmentId: item.environmentId as string };
}
