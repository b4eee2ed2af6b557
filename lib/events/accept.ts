import { contextKeysOf } from '../context-keys.ts';
import type { Caller } from '../auth/caller.ts';
import { ServiceUnavailableError } from '../errors.ts';
import { logger } from '../logger.ts';
import type { Recipient, TenantRef, TriggerEvent } from '../pipeline/model.ts';
import {
  claimTransaction,
  claimTransactions,
  notificationShardsFor,
  releaseTransaction,
  storeGeneratedTriggers,
} from '../pipeline/trigger-store.ts';
import { recordTriggersAccepted } from '../observability/metrics.ts';
import { enqueueEvents, type EventQueue } from '../pipeline/queue-messages.ts';
import { mapConcurrently } from '../concurrency.ts';
import { getTenant } from '../tenants/repository.ts';
import { getWorkflow, type VersionedWorkflow } from '../workflows/repository.ts';
import { checkPayload, type PayloadProblem } from './payload-validation.ts';
import { parseRecipients } from './recipients.ts';
import type { BroadcastEventInput, TriggerEventResponse, TriggerEventInput } from './schemas.ts';
import { newTransactionId } from './transaction-id.ts';

// Accepting triggers: each event is decided in the reference's order (workflow, payload schema,
// tenant, active, steps, recipients); then the transactionIds of the accepted ones are claimed
// with conditional writes (the claim is the stored TriggerEvent): one Put for a single event,
// one TransactWriteItems per 100 for a bulk request, whose cancellation reasons name the ids
// taken before. Ids generated here need no claim: their triggers are stored with plain batch
// writes. Then the claimed ones are sent to the events queue, the batches at once. The caller
// turns the outcomes into its answer.

export type Candidate = { input: TriggerEventInput; broadcast?: false } | { input: BroadcastEventInput; broadcast: true };

export type Outcome =
  /** Decided: processed, or a status the reference answers in the result itself. */
  | { kind: 'answered'; response: TriggerEventResponse }
  /** The two refusals the single trigger answers as HTTP errors (422, 400) and bulk as `error`. */
  | { kind: 'workflowNotFound'; transactionId?: string }
  | { kind: 'invalidPayload'; message: string; problems: PayloadProblem[]; transactionId?: string }
  /** More than one item of the table can hold (a DynamoDB item is at most 400 KB). */
  | { kind: 'tooLarge'; message: string; transactionId?: string };

type Decision = Outcome | { kind: 'accepted'; event: TriggerEvent; generatedId: boolean };

/** Events decided at once (reads only: the workflow and tenant, each once per request). */
const CONCURRENCY = 10;
/** Messages per SendMessageBatch (SQS's limit), and batches sent at once. */
const BATCH = 10;
const SEND_CONCURRENCY = 10;
/**
 * What the stored trigger may take. Each notification copies its payload and overrides next to
 * its jobs and execution details, so this leaves them room within DynamoDB's 400 KB as well.
 */
export const MAX_EVENT_BYTES = 256 * 1024;
/** Ids longer than this cannot be in a key: nothing is stored under them, so nothing is found. */
const MAX_LOOKUP_BYTES = 1024;

export const DUPLICATE_TRANSACTION_MESSAGE =
  'transactionId property is not unique, please make sure all triggers have a unique transactionId';

/** `queue`: where the accepted events go (a single trigger's to `events`, bulk and broadcast to `bulk`). */
export async function acceptEvents(caller: Caller, candidates: readonly Candidate[], queue: EventQueue): Promise<Outcome[]> {
  // One read per distinct workflow and tenant of the request, whatever the number of events.
  const workflows = memoize((name: string) => (canBeKey(name) ? getWorkflow(caller, name) : Promise.resolve(undefined)));
  const tenants = memoize((identifier: string) => (canBeKey(identifier) ? getTenant(caller, identifier) : Promise.resolve(undefined)));
  const decisions = await mapConcurrently(candidates, CONCURRENCY, (candidate) => decide(caller, candidate, workflows, tenants));

  // Events naming the same transactionId: the first in input order claims it, the others are
  // duplicates. The claims of the rest are written together (claimTransactions).
  const outcomes: (Outcome | undefined)[] = decisions.map((d) => (d.kind === 'accepted' ? undefined : d));
  const claiming: number[] = [];
  const seen = new Set<string>();
  decisions.forEach((d, i) => {
    if (d.kind !== 'accepted') return;
    if (seen.has(d.event.transactionId)) outcomes[i] = duplicate(d.event.transactionId);
    else {
      seen.add(d.event.transactionId);
      claiming.push(i);
    }
  });
  const accepting = claiming.map((i) => decisions[i] as Extract<Decision, { kind: 'accepted' }>);
  const events = accepting.map((d) => d.event);
  const claimed = await claim(
    caller,
    events,
    accepting.map((d) => d.generatedId),
  );
  const accepted: string[] = [];
  claiming.forEach((i, j) => {
    const { transactionId } = events[j]!;
    if (claimed[j]) accepted.push(transactionId);
    outcomes[i] = claimed[j]
      ? { kind: 'answered', response: { acknowledged: true, status: 'processed', transactionId } }
      : duplicate(transactionId);
  });
  await enqueue(caller, accepted, queue);
  recordTriggersAccepted(caller, accepted.length);
  return outcomes as Outcome[];
}

/**
 * Claims the events' transactionIds; `result[i]` is false when events[i]'s was used before. A
 * single event is one conditional Put. Of several, ids the client gave are claimed with
 * conditional writes (claimTransactions), ids generated here are stored with plain batch writes
 * (storeGeneratedTriggers: nothing else can hold them), both at once. If either fails, what the
 * other wrote is released too, and the error thrown.
 */
async function claim(caller: Caller, events: TriggerEvent[], generated: boolean[]): Promise<boolean[]> {
  if (events.length === 1) return [await claimTransaction(events[0]!)];
  const given = events.filter((_, i) => !generated[i]);
  const fresh = events.filter((_, i) => generated[i]);
  const [givenClaims, freshStored] = await Promise.allSettled([
    given.length > 0 ? claimTransactions(given, storedSize) : Promise.resolve([]),
    fresh.length > 0 ? storeGeneratedTriggers(fresh) : Promise.resolve(),
  ]);
  if (givenClaims.status === 'rejected' || freshStored.status === 'rejected') {
    // claimTransactions releases its own claims when it fails; the generated ids all go.
    const written = givenClaims.status === 'fulfilled' ? given.filter((_, i) => givenClaims.value[i]) : [];
    await releaseClaims(
      caller,
      [...written, ...fresh].map((e) => e.transactionId),
    );
    throw givenClaims.status === 'rejected' ? givenClaims.reason : (freshStored as PromiseRejectedResult).reason;
  }
  let next = 0;
  return generated.map((isGenerated) => isGenerated || givenClaims.value[next++]!);
}

const duplicate = (transactionId: string): Outcome => ({
  kind: 'answered',
  response: { acknowledged: true, status: 'error', error: [DUPLICATE_TRANSACTION_MESSAGE], transactionId },
});

async function decide(
  caller: Caller,
  { input, broadcast }: Candidate,
  workflows: (name: string) => Promise<VersionedWorkflow | undefined>,
  tenants: (identifier: string) => Promise<unknown>,
): Promise<Decision> {
  const givenId = input.transactionId || undefined;
  const workflow = await workflows(input.name);
  if (!workflow) return { kind: 'workflowNotFound', transactionId: givenId };

  const payload = await checkPayload(workflow, input.payload);
  if (!payload.ok) return { kind: 'invalidPayload', message: payload.message, problems: payload.problems, transactionId: givenId };

  const answer = (status: TriggerEventResponse['status'], transactionId?: string): Decision => ({
    kind: 'answered',
    response: { acknowledged: true, status, ...(transactionId !== undefined && { transactionId }) },
  });
  const tenant: TenantRef | undefined = input.tenant;
  if (tenant && !(await tenants(tenant.identifier))) return answer('no_tenant_found');
  if (!workflow.active) return answer('trigger_not_active');
  // The legacy synchronous checks: the reference's statuses for them are still in the interface.
  if (workflow.steps.length === 0) return answer('no_workflow_steps_defined');
  if (!workflow.steps.some((step) => step.active === true)) return answer('no_workflow_active_steps_defined');

  const transactionId = givenId ?? newTransactionId();
  let to: Recipient[] = [];
  if (!broadcast) {
    const recipients = parseRecipients(input.to);
    // Counted, not shown: recipients carry personal data.
    if (recipients.invalid.length > 0) logger.warn('Invalid recipients dropped', { transactionId, count: recipients.invalid.length });
    if (recipients.valid.length === 0) return answer('invalid_recipients', transactionId);
    to = recipients.valid;
  }
  const notificationShards = notificationShardsFor(to, broadcast === true);

  const event: TriggerEvent = {
    _organizationId: caller.organizationId,
    _environmentId: caller.environmentId,
    transactionId,
    workflowId: workflow.workflowId,
    workflowDbId: workflow._id,
    workflowVersion: workflow.version,
    payload: payload.payload,
    overrides: input.overrides,
    to,
    ...(broadcast && { broadcast: true }),
    ...(input.actor && { actor: input.actor }),
    ...(tenant && { tenant }),
    contextKeys: contextKeysOf(input.context),
    ...(input.context && { context: input.context }),
    ...(input.bridgeUrl !== undefined && workflow.origin === 'external' && { bridgeUrl: input.bridgeUrl }),
    userId: caller.userId,
    createdAt: new Date().toISOString(),
    ...(notificationShards > 1 && { notificationShards }),
  };
  if (storedSize(event) > MAX_EVENT_BYTES) {
    return {
      kind: 'tooLarge',
      message:
        'The event is too large: payload, overrides, recipients, actor, tenant and context together ' +
        `must be at most ${MAX_EVENT_BYTES / 1024} KB`,
      transactionId: givenId,
    };
  }
  return { kind: 'accepted', event, generatedId: givenId === undefined };
}

/**
 * Sends the batches at once (at most SEND_CONCURRENCY in flight). The claims of a batch that
 * failed are released and the request is answered 503, so a retry is accepted; the events of the
 * batches sent go on (a retry answers them as duplicates). A message of a failed batch that SQS
 * took after all finds no trigger and is dropped.
 */
async function enqueue(scope: Caller, transactionIds: readonly string[], queue: EventQueue): Promise<void> {
  const batches: string[][] = [];
  for (let i = 0; i < transactionIds.length; i += BATCH) batches.push(transactionIds.slice(i, i + BATCH));
  const failures = await mapConcurrently(batches, SEND_CONCURRENCY, (batch) =>
    enqueueEvents(scope, batch, queue).then(
      () => undefined,
      (error: unknown) => ({ batch, error }),
    ),
  );
  const failed = failures.filter((f) => f !== undefined);
  if (failed.length === 0) return;
  const unqueued = failed.flatMap((f) => f.batch);
  logger.error('Accepted events could not be queued', {
    error: failed[0]!.error as Error,
    queued: transactionIds.length - unqueued.length,
    released: unqueued.length,
  });
  await releaseClaims(scope, unqueued);
  throw new ServiceUnavailableError('The events could not be queued, please try again');
}

async function releaseClaims(scope: Caller, transactionIds: readonly string[]): Promise<void> {
  await mapConcurrently(transactionIds, CONCURRENCY, async (transactionId) => {
    try {
      await releaseTransaction(scope, transactionId);
    } catch (error) {
      // The request fails either way; a claim left behind makes a retry of that id a duplicate.
      logger.error('Trigger claim could not be released', { error: error as Error, transactionId });
    }
  });
}

function memoize<T>(load: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const loaded = new Map<string, Promise<T>>();
  return (key) => {
    let value = loaded.get(key);
    if (!value) loaded.set(key, (value = load(key)));
    return value;
  };
}

const canBeKey = (id: string) => id.length > 0 && Buffer.byteLength(id) <= MAX_LOOKUP_BYTES;

/**
 * An upper estimate of the item's size as DynamoDB counts it: names and strings in UTF-8 bytes,
 * numbers at most 21 bytes, 3 bytes per map or list plus 1 per element.
 */
export function storedSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(value).replace(/[^0-9]/g, '').length / 2) + 1;
  if (value === null || typeof value !== 'object') return 1;
  let size = 3;
  if (Array.isArray(value)) for (const item of value) size += 1 + storedSize(item);
  else for (const [key, item] of Object.entries(value)) if (item !== undefined) size += 1 + Buffer.byteLength(key) + storedSize(item);
  return size;
}
