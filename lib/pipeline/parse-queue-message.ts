import { logger } from '../logger.ts';
import type { EventMessage, JobMessage } from './queue-messages.ts';

// What both consumers do with a queue message before their work (consume-event.ts,
// consume-job.ts; one module each, so each consumer's bundle holds only its own side of the
// pipeline). A message that is not one of ours can never succeed: it is logged and dropped
// instead of retried into the dead-letter queue. Checked by hand rather than with zod, which
// would add ~100 KB to both consumers for six fields.

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function hasScope(m: Record<string, unknown>): boolean {
  return isId(m.organizationId) && isId(m.environmentId) && isId(m.transactionId);
}

const isEventMessage = (m: Record<string, unknown>): boolean =>
  m.kind === 'event' && hasScope(m) && (m.cursor === undefined || typeof m.cursor === 'string');

const isJobMessage = (m: Record<string, unknown>): boolean =>
  m.kind === 'job' && hasScope(m) && isId(m.subscriberId) && Number.isInteger(m.jobIndex) && (m.jobIndex as number) >= 0;

export const parseEventMessage = (body: string) => parse<EventMessage>(body, isEventMessage);
export const parseJobMessage = (body: string) => parse<JobMessage>(body, isJobMessage);

function parse<T>(body: string, valid: (m: Record<string, unknown>) => boolean): T | undefined {
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
