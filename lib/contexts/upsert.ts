import type { EnvScope } from '../scope.ts';
import { insertContext } from './repository.ts';

// What a trigger's (or an inbox session's) `context` does to the stored contexts, as in the
// reference: each one named is created with the data given if it does not exist; an existing
// context keeps its data (only PATCH /v2/contexts changes it). Repeating it changes nothing, so
// a redelivered trigger may run it again.

export type ContextPayload = Record<string, { id: string; data?: Record<string, unknown> | undefined }>;

export async function upsertContexts(scope: EnvScope, context: ContextPayload | undefined, now: Date): Promise<void> {
  const createdAt = now.toISOString();
  await Promise.all(
    Object.entries(context ?? {}).map(([type, { id, data }]) =>
      insertContext(scope, { type, id, data: data ?? {}, createdAt, updatedAt: createdAt }),
    ),
  );
}
