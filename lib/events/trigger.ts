import type * as z from '../zod.ts';
import type { Caller } from '../auth/caller.ts';
import { AppError, ValidationError } from '../errors.ts';
import { acceptEvents, type Candidate, type Outcome } from './accept.ts';
import { PayloadValidationError } from './payload-validation.ts';
import { triggerEventBody, type BroadcastEventInput, type TriggerEventInput, type TriggerEventResponse } from './schemas.ts';

// The three trigger endpoints. Bulk answers every event in its result (a bad item fails alone);
// the single and broadcast triggers answer an unknown workflow with 422 and a payload that fails
// the workflow's schema with 400, as the reference does, and every other status in the result.
// A single trigger's event goes to the `events` queue, bulk and broadcast work to `bulk`
// (lib/pipeline/queue-messages.ts, EventQueue): a flood never queues in front of a single trigger.

/** The reference's wording for an event its command validation refused. */
const VALIDATION_PREFIX = 'Validation failed for ParseEventRequestMulticastCommand';

export async function triggerBulk(caller: Caller, body: { events: unknown[] }): Promise<TriggerEventResponse[]> {
  const results: (TriggerEventResponse | undefined)[] = [];
  const candidates: Candidate[] = [];
  const positions: number[] = [];
  body.events.forEach((item, index) => {
    const parsed = triggerEventBody.safeParse(item);
    if (parsed.success) {
      candidates.push({ input: parsed.data });
      positions.push(index);
      results.push(undefined);
    } else {
      results.push(refused(validationMessage(parsed.error), givenTransactionId(item)));
    }
  });
  const outcomes = await acceptEvents(caller, candidates, 'bulk');
  outcomes.forEach((outcome, i) => (results[positions[i]!] = bulkResult(outcome)));
  return results as TriggerEventResponse[];
}

export async function triggerEvent(caller: Caller, input: TriggerEventInput): Promise<TriggerEventResponse> {
  return singleResult((await acceptEvents(caller, [{ input }], 'events'))[0]!, input.name);
}

/** To every subscriber of the environment: the events consumer fans out page by page. */
export async function triggerBroadcast(caller: Caller, input: BroadcastEventInput): Promise<TriggerEventResponse> {
  return singleResult((await acceptEvents(caller, [{ input, broadcast: true }], 'bulk'))[0]!, input.name);
}

function bulkResult(outcome: Outcome): TriggerEventResponse {
  switch (outcome.kind) {
    case 'answered':
      return outcome.response;
    case 'workflowNotFound':
      return refused('workflow_not_found', outcome.transactionId);
    case 'invalidPayload':
    case 'tooLarge':
      return refused(outcome.message, outcome.transactionId);
  }
}

/** `name`: the workflow identifier the trigger named, the field an unknown workflow is reported on. */
function singleResult(outcome: Outcome, name: string): TriggerEventResponse {
  switch (outcome.kind) {
    case 'answered':
      return outcome.response;
    case 'workflowNotFound':
      throw new ValidationError({ name: { messages: [`No workflow with the identifier "${name}"`], value: name } }, 'workflow_not_found');
    case 'invalidPayload':
      throw new PayloadValidationError(outcome.message, outcome.problems);
    case 'tooLarge':
      throw new AppError(413, outcome.message);
  }
}

function refused(message: string, transactionId: string | undefined): TriggerEventResponse {
  return { acknowledged: true, status: 'error', error: [message], ...(transactionId && { transactionId }) };
}

/** `Validation failed for ...: name: name must be a string; to: ...`, one part per field. */
function validationMessage(error: z.core.$ZodError): string {
  const byField = new Map<string, string[]>();
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'event';
    byField.set(field, [...(byField.get(field) ?? []), issue.message]);
  }
  return `${VALIDATION_PREFIX}: ${[...byField].map(([field, messages]) => `${field}: ${messages.join(', ')}`).join('; ')}`;
}

function givenTransactionId(item: unknown): string | undefined {
  const id = item !== null && typeof item === 'object' ? (item as { transactionId?: unknown }).transactionId : undefined;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}
