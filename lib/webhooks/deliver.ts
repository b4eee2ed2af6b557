import { logger } from '../logger.ts';
import { guardedPost } from '../net/guarded-request.ts';
import { delaySecondsUntil } from '../queue/delay.ts';
import { parse } from '../queue/parse-message.ts';
import { sendMessages } from '../queue/send.ts';
import type { EnvScope } from '../scope.ts';
import { markFollowedUp, putDeadLetter, recordAttempt, getAttempt, type StoredAttempt } from './attempt-store.ts';
import { isDelivery, scopeOfDelivery, type WebhookDelivery } from './delivery-message.ts';
import { getEndpointForSending } from './repository.ts';
import { delayBeforeAttempt, maxAttempts, webhookTimeoutMs } from './schedule.ts';
import { signedHeaders } from './sign.ts';

// The webhook sender's work for one queue message: one attempt to deliver one event to one
// endpoint. A failed attempt never fails the queue message (the endpoint's trouble must not
// hold up anything else): it is recorded and the next attempt is queued on the retry schedule,
// or, after the last, the event is dead-lettered. The attempt item is written once; a
// redelivered message finds it and only finishes what its first run left undone, so a crash
// anywhere loses no attempt and a duplicate message forks no second chain of retries.

const isSuccess = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

export async function deliverWebhook(body: string): Promise<void> {
  const message = parse<WebhookDelivery>(body, isDelivery);
  if (!message) return;
  const scope = scopeOfDelivery(message);
  if (message.dueAt && Date.parse(message.dueAt) > Date.now()) {
    // Not due yet: waits longer than SQS holds a message are chained.
    return sendMessages('webhooks', [{ body: message, delaySeconds: delaySecondsUntil(new Date(message.dueAt)) }]);
  }

  // Both read at once, consistently: the batch's records ask together, one BatchGetItem for all.
  const [found, recorded] = await Promise.all([
    getEndpointForSending(scope, message.endpointId),
    getAttempt(scope, message.endpointId, message.eventId, message.attempt),
  ]);
  if (!found?.endpoint.enabled) {
    logger.info('Webhook not sent: its endpoint is gone or disabled', { endpointId: message.endpointId, eventId: message.eventId });
    return;
  }
  const attempt = recorded ?? (await send(scope, message, found.endpoint.url, found.secret));
  if (!attempt.followedUp) await followUp(scope, message, attempt);
}

async function send(scope: EnvScope, message: WebhookDelivery, url: string, secret: string): Promise<StoredAttempt> {
  const started = new Date();
  const outcome = await guardedPost(
    url,
    signedHeaders(secret, message.eventId, message.payload, started),
    message.payload,
    webhookTimeoutMs(),
  );
  const success = isSuccess(outcome.status);
  const last = message.attempt >= maxAttempts();
  const nextAt = success || last ? null : new Date(Date.now() + delayBeforeAttempt(message.attempt + 1) * 1000).toISOString();
  return recordAttempt(scope, {
    eventId: message.eventId,
    eventType: message.eventType,
    endpointId: message.endpointId,
    attempt: message.attempt,
    statusCode: outcome.status ?? null,
    success,
    latencyMs: Date.now() - started.getTime(),
    response: outcome.excerpt,
    timestamp: started.toISOString(),
    nextAttemptAt: nextAt,
  });
}

/** Queues the next attempt, or dead-letters the event after the last one; then notes it done. */
async function followUp(scope: EnvScope, message: WebhookDelivery, attempt: StoredAttempt): Promise<void> {
  if (!attempt.success) {
    if (attempt.nextAttemptAt) {
      const next: WebhookDelivery = { ...message, attempt: message.attempt + 1, dueAt: attempt.nextAttemptAt };
      await sendMessages('webhooks', [{ body: next, delaySeconds: delaySecondsUntil(new Date(attempt.nextAttemptAt)) }]);
    } else {
      logger.warn('Webhook dead-lettered after its last attempt', {
        endpointId: message.endpointId,
        eventId: message.eventId,
        attempts: message.attempt,
      });
      await putDeadLetter(scope, {
        eventId: message.eventId,
        eventType: message.eventType,
        endpointId: message.endpointId,
        attempts: message.attempt,
        lastStatusCode: attempt.statusCode,
        lastResponse: attempt.response,
        failedAt: attempt.timestamp,
        payload: message.payload,
      });
    }
  }
  await markFollowedUp(scope, attempt);
}
