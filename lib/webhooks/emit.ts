import { idOf } from '../ids.ts';
import { logger } from '../logger.ts';
import { delaySecondsUntil } from '../queue/delay.ts';
import { sendMessages } from '../queue/send.ts';
import { scopeOfKey, subscriberIdOfKey } from '../store/keys.ts';
import type { StreamChange } from '../store/stream-change.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import type { Subscriber } from '../subscribers/model.ts';
import { getEnvironment } from '../accounts/environments.ts';
import type { WebhookDelivery } from './delivery-message.ts';
import { getWorkflowByDbId } from '../workflows/repository.ts';
import { eventTypesOf, sourceOf } from './derive.ts';
import { eventData } from './event-data.ts';
import { eventTime } from './event-time.ts';
import { objectTypeOf, OPT_IN_EVENTS, type WebhookEventType } from './event-types.ts';
import { endpointsOfEnvironment } from './repository.ts';
import { delayBeforeAttempt } from './schedule.ts';
import type { Endpoint } from './schemas.ts';

// The one emitter of webhook events: each stored change of a message, workflow or preference
// (one record of the table's stream) becomes its events, and each event one delivery message
// per enabled endpoint of its environment that takes its type. The event's id comes from the
// stream record (the same when the record is handed over again) and its body is fixed here, so
// every delivery and retry of an event carries the same id and the same bytes.

/** What one batch of records reads once: per environment, and per subscriber (a change may make several events of one message). */
export class EmitCache {
  private reads = new Map<string, Promise<unknown>>();

  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (!this.reads.has(key)) this.reads.set(key, read());
    return this.reads.get(key) as Promise<T>;
  }

  endpointsOf(scope: EnvScope): Promise<Endpoint[]> {
    return this.once(`endpoints/${scope.organizationId}/${scope.environmentId}`, () =>
      endpointsOfEnvironment(scope).then((all) => all.filter((e) => e.enabled)),
    );
  }

  /** The envelope's `environmentId`: the environment's public identifier, as the reference sends it. */
  identifierOf(scope: EnvScope): Promise<string> {
    return this.once(`identifier/${scope.organizationId}/${scope.environmentId}`, () =>
      getEnvironment(scope.organizationId, scope.environmentId).then((e) => e?.identifier ?? scope.environmentId),
    );
  }

  subscriberOf(scope: EnvScope, subscriberId: string): Promise<Subscriber | undefined> {
    return this.once(`subscriber/${scope.organizationId}/${scope.environmentId}/${subscriberId}`, () => getSubscriber(scope, subscriberId));
  }
}

/** A workflow removed under its old workflowId because it was stored under a new one (its database id is still there). */
async function isMove(scope: EnvScope, record: StreamChange): Promise<boolean> {
  if (record.after || !record.before || sourceOf(record.sk) !== 'workflow') return false;
  return (await getWorkflowByDbId(scope, record.before._id as string)) !== undefined;
}

const takes = (endpoint: Endpoint, type: WebhookEventType) =>
  endpoint.eventTypes.length === 0 ? !OPT_IN_EVENTS.includes(type) : endpoint.eventTypes.includes(type);

// The stream hands a change over moments after it was stored: an endpoint created in between was
// not there when it happened, and gets none of its events. A change is placed by the latest time
// its item carries, the event's own or the write's (`updatedAt`): a provider's receipt reports an
// earlier delivery time than its store. A deletion carries no time of its own (the stream's is
// rounded, ./event-time.ts) and goes to every endpoint there is.
function createdAfter(endpoint: Endpoint, record: StreamChange, timestamp: string): boolean {
  if (!record.after) return false;
  const stored = Date.parse(String(record.after.updatedAt));
  const changedAt = Math.max(Date.parse(timestamp), Number.isNaN(stored) ? 0 : stored);
  return Date.parse(endpoint.createdAt) > changedAt;
}

export async function emitChange(record: StreamChange, cache: EmitCache): Promise<void> {
  const scope = scopeOfKey(record.pk);
  if (!scope) return;
  const types = eventTypesOf(record);
  if (types.length === 0 || (await isMove(scope, record))) return;
  const endpoints = await cache.endpointsOf(scope);
  const deliveries: WebhookDelivery[] = [];
  for (const type of types) {
    const timestamp = eventTime(type, record);
    const to = endpoints.filter((endpoint) => takes(endpoint, type) && !createdAfter(endpoint, record, timestamp));
    if (to.length === 0) continue;
    const eventId = `evt_${idOf(`${record.changeId}#${type}`, record.at)}`;
    const payload = JSON.stringify({
      id: eventId,
      type,
      object: objectTypeOf(type),
      data: await eventData(scope, type, record, subscriberIdOfKey(record.pk), (subscriberId) => cache.subscriberOf(scope, subscriberId)),
      timestamp,
      environmentId: await cache.identifierOf(scope),
    });
    for (const endpoint of to) {
      deliveries.push({ kind: 'webhook', ...scope, endpointId: endpoint._id, eventId, eventType: type, payload, attempt: 1 });
    }
  }
  if (deliveries.length === 0) return;
  logger.debug('Webhook events', { events: types, deliveries: deliveries.length });
  // The schedule's first wait (0 unless configured otherwise), chained like every later one.
  const firstAt = new Date(record.at + delayBeforeAttempt(1) * 1000);
  const wait = delaySecondsUntil(firstAt);
  await sendMessages(
    'webhooks',
    deliveries.map((body) => (wait > 0 ? { body: { ...body, dueAt: firstAt.toISOString() }, delaySeconds: wait } : { body })),
  );
}
