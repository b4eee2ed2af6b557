import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { resolveLayout } from '../layouts/lookup.ts';
import { resolveWorkflow } from '../workflows/lookup.ts';
import { layoutResource } from './layout-translations.ts';
import type { ResourceRef } from './repository.ts';
import type { ResourceType } from './schemas.ts';
import { workflowResource } from './workflow-translations.ts';

// The one place that finds a translatable resource by its type and the id a client names it by:
// each type is one entry.

export interface TranslatableResource extends ResourceRef {
  /** Whether the resource renders its translations (its `isTranslationEnabled`). */
  translationsEnabled: boolean;
}

type Finder = (scope: EnvScope, id: string) => Promise<TranslatableResource | undefined>;

const finders: Record<ResourceType, Finder> = {
  /** By workflowId, database id or slug, as the v2 workflow routes take it. */
  workflow: async (scope, id) => {
    const workflow = await resolveWorkflow(scope, id);
    return workflow && { ...workflowResource(workflow), translationsEnabled: workflow.isTranslationEnabled };
  },
  /** By identifier, database id or slug, as the v2 layout routes take it. */
  layout: async (scope, id) => {
    const layout = await resolveLayout(scope, id);
    return layout && { ...layoutResource(layout), translationsEnabled: layout.isTranslationEnabled };
  },
};

export function findResource(scope: EnvScope, resourceType: ResourceType, id: string): Promise<TranslatableResource | undefined> {
  return finders[resourceType](scope, id);
}

const resourceNotFound = (resourceType: ResourceType, id: string) =>
  new NotFoundError(`${resourceType === 'workflow' ? 'Workflow' : 'Layout'} with id ${id} not found`);

export async function requireResource(scope: EnvScope, resourceType: ResourceType, id: string): Promise<TranslatableResource> {
  const resource = await findResource(scope, resourceType, id);
  if (!resource) throw resourceNotFound(resourceType, id);
  return resource;
}
