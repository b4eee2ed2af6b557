import { isId, parse } from '../queue/parse-message.ts';
import type { EventMessage, JobMessage } from './queue-messages.ts';

// The pipeline's two message shapes, checked before the consumers' work (consume-event.ts,
// consume-job.ts; one module each, so each consumer's bundle holds only its own side of the
// pipeline). lib/queue/parse-message.ts drops what is not one of them.

function hasScope(m: Record<string, unknown>): boolean {
  return isId(m.organizationId) && isId(m.environmentId) && isId(m.transactionId);
}

/** Bounded as the walk makes them (recipients.ts), so a forged message cannot ask for unbounded work. */
const MAX_SEGMENT_MEMBERS = 1_000;

function isSegment(s: unknown): boolean {
  if (s === null || typeof s !== 'object') return false;
  const { source, subscriberIds } = s as Record<string, unknown>;
  return (
    Number.isInteger(source) &&
    (source as number) >= -1 &&
    Array.isArray(subscriberIds) &&
    subscriberIds.length > 0 &&
    subscriberIds.length <= MAX_SEGMENT_MEMBERS &&
    subscriberIds.every(isId)
  );
}

const isEventMessage = (m: Record<string, unknown>): boolean =>
  m.kind === 'event' &&
  hasScope(m) &&
  (m.cursor === undefined || typeof m.cursor === 'string') &&
  (m.segment === undefined || isSegment(m.segment));

const isJobMessage = (m: Record<string, unknown>): boolean =>
  m.kind === 'job' &&
  hasScope(m) &&
  isId(m.subscriberId) &&
  Number.isInteger(m.jobIndex) &&
  (m.jobIndex as number) >= 0 &&
  (m.notificationShards === undefined || (Number.isInteger(m.notificationShards) && (m.notificationShards as number) >= 1));

export const parseEventMessage = (body: string) => parse<EventMessage>(body, isEventMessage);
export const parseJobMessage = (body: string) => parse<JobMessage>(body, isJobMessage);
