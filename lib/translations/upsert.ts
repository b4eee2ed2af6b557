import type { EnvScope } from '../scope.ts';
import { putTranslation } from './repository.ts';
import { requireResource } from './resources.ts';
import type { CreateTranslationInput, Translation } from './schemas.ts';

/** `POST /v2/translations`: the locale's content replaced whole (not merged), as the reference does. */
export async function upsertTranslation(scope: EnvScope, input: CreateTranslationInput): Promise<Translation> {
  const resource = await requireResource(scope, input.resourceType, input.resourceId);
  return putTranslation(scope, resource, input.locale, input.content, new Date().toISOString());
}
