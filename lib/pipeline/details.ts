import { newId } from '../ids.ts';
import type { DetailSource, DetailStatus, ExecutionDetail } from './model.ts';

// Execution details: one per decision the pipeline takes, as the activity feed shows them. The
// texts are the reference's, so dashboards and clients that match on them keep working.

export const DETAILS = {
  stepQueued: 'Step queued',
  providerSelected: (name: string) => `${name} provider was selected`,
  messageCreated: 'Message created',
  messageSent: 'Message sent',
  noIntegration: 'Subscriber does not have an active integration',
  contentFailed: 'Message content could not be generated',
  layoutSelected: 'Layout selected',
  layoutNotFound: 'Layout not found',
  providerError: 'Unexpected provider error',
  missingEmail: 'Subscriber missing email address',
  missingPhone: 'Subscriber missing phone number',
  noChatChannel: 'Subscriber does not have a configured channel',
  noPushTokens: 'Subscriber credentials is missing the tokens for sending a push notification message',
  webhookUrlMissing: 'Webhook URL for the chat channel is missing',
  allChatFailed: 'All chat channels failed to send the message',
  connectionRevoked: 'The provider refused the channel connection token; the connection is marked revoked',
  invalidPushToken: 'Invalid push device token was removed from subscriber',
  conditionsSkipped: 'Step was skipped based on steps conditions',
  filteredSubscriberWorkflow: 'Step filtered by subscriber workflow preferences',
  filteredSubscriberGlobal: 'Step filtered by subscriber global preferences',
  filteredWorkflow: 'Step filtered by workflow preferences',
  outsideSchedule: "The step was skipped as it fell outside the subscriber's schedule",
  canceledAfterFailure: 'Step was canceled because a previous step failed',
  canceledByRequest: 'Step was canceled by request (DELETE /v1/events/trigger)',
  delayed: 'Step delayed',
  /** Ours: a delay that waited for engagement (steps/delay.ts). */
  delayEngaged: (event: string) => `Delay ended: the subscriber ${event === 'seen' ? 'saw' : event} the message`,
  extendedToSchedule: 'Step was extended to the next available time in the subscriber schedule',
  maxScheduleExtensions: 'Step was executed due to maximum number of subscriber schedule extensions reached',
  invalidDelay: 'Invalid delay configuration',
  deferLimitExceeded: 'Defer duration limit exceeded',
  digested: 'Step digested',
  digestMerged: 'Digest was merged with other digest',
  digestSkippedBackoff: 'Digest was skipped, first backoff event',
  digestTriggered: 'Digest triggered events',
  throttled: 'Throttle limit exceeded for the given window',
  throttlePassed: 'Step passed the throttle',
  throttleInPast: 'Throttle window date is in the past',
  customExecuted: 'Custom step executed',
  /** Ours: every call of a code-first step to its bridge (the reference records the call in its logs). */
  bridgeExecuted: 'Step executed by the bridge',
  bridgeFailed: (message: string) => `Bridge execution failed: ${message}`,
  bridgeSkipped: 'Step was skipped by the bridge (skip)',
  bridgeUrlMissing: 'Bridge URL not found: run `npx novu sync` for this environment',
  outcomeUnknown: 'Delivery outcome unknown: the worker stopped during the send, so it is not repeated',
  failedForGood: 'Step failed after repeated attempts',
  /** Ours (failover is not the reference's): the next integration of the channel is tried. */
  failingOver: (integration: string) => `Failing over to ${integration}`,
  translationMissing: (keys: string[], locale: string) =>
    `Missing translation for key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `'${k}'`).join(', ')} ` +
    `in locale ${locale} and the default locale: rendered as the key`,
} as const;

export interface DetailOptions {
  raw?: unknown;
  providerId?: string;
  messageId?: string;
  source?: DetailSource;
}

/** Provider answers can be large; the activity feed keeps the start. */
const MAX_RAW_CHARS = 4096;

export function detail(text: string, status: DetailStatus, options: DetailOptions = {}, now = new Date()): ExecutionDetail {
  let raw: string | null = null;
  if (options.raw !== undefined) {
    const json = typeof options.raw === 'string' ? options.raw : JSON.stringify(options.raw);
    raw = json.length > MAX_RAW_CHARS ? `${json.slice(0, MAX_RAW_CHARS)}…` : json;
  }
  return {
    _id: newId(now.getTime()),
    createdAt: now.toISOString(),
    detail: text,
    status,
    source: options.source ?? 'Internal',
    isRetry: false,
    isTest: false,
    ...(options.providerId && { providerId: options.providerId }),
    ...(options.messageId && { messageId: options.messageId }),
    raw,
  };
}
