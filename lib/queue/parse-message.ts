import { logger } from '../logger.ts';

// What every consumer does with a queue message before its work: a message that is not one of
// ours can never succeed, so it is logged and dropped instead of retried into the dead-letter
// queue. Checked by hand rather than with zod, which would add ~100 KB to each consumer.

export const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The message, if it is JSON that `valid` accepts; otherwise logged and dropped (undefined). */
export function parse<T>(body: string, valid: (m: Record<string, unknown>) => boolean): T | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json) || !valid(json as Record<string, unknown>)) {
    logger.error('Dropped a malformed queue message', { body: body.slice(0, 500) });
    return undefined;
  }
  return json as T;
}
