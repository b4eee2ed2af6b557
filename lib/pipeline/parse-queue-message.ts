import { isId, parse } from '../queue/parse-message.ts';
import type { EventMessage, JobMessage } from './queue-messages.ts';

// The pipeline's two message shapes, checked before the consumers' work (consume-event.ts,
// consume-job.ts; one module each, so each consumer's bundle holds only its own side of the
// pipeline). lib/queue/parse-message.ts drops what is not one of them.

function hasScope(m: Record<string, unknown>): boolean {
  return isId(m.organizationId) && isId(m.environmentId) && isId(m.transactionId);
}

const isEventMessage = (m: Record<string, unknown>): boolean =>
  m.kind === 'event' && hasScope(m) && (m.cursor === undefined || typeof m.cursor === 'string');

const isJobMessage = (m: Record<string, unknown>): boolean =>
  m.kind === 'job' && hasScope(m) && isId(m.subscriberId) && Number.isInteger(m.jobIndex) && (m.jobIndex as number) >= 0 &&
  (m.notificationShards === undefined || (Number.isInteger(m.notificationShards) && (m.notificationShards as number) >= 1));

export const parseEventMessage = (body: string) => parse<EventMessage>(body, isEventMessage);
export const parseJobMessage = (body: string) => parse<JobMessage>(body, isJobMessage);
