import { NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { getTopic } from './repository.ts';
import type { Topic } from './schemas.ts';

export async function requireTopic(scope: EnvScope, key: string): Promise<Topic> {
  const topic = await getTopic(scope, key);
  if (!topic) throw new NotFoundError(`Topic with key ${key} not found`);
  return topic;
}
