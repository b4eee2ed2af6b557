import * as z from '../zod.ts';
import { cursorQueryFields } from '../http/cursor-list.ts';
import { httpUrl } from '../net/http-url.ts';
import { WEBHOOK_EVENT_TYPES } from './event-types.ts';

// Shapes of webhook endpoints, of the requests that manage them, and of their delivery attempts
// and dead letters. Unknown body fields are ignored (zod strips them), as elsewhere.

const url = httpUrl('url must be an http or https URL');
const description = z.string().check(z.maxLength(1024));
/** Empty (or absent): every event type. */
const eventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES)).check(z.maxLength(WEBHOOK_EVENT_TYPES.length));

export const createEndpointBody = z.object({
  url,
  description: z.optional(description),
  eventTypes: z.optional(eventTypes),
  enabled: z.optional(z.boolean()),
});
export type CreateEndpointInput = z.infer<typeof createEndpointBody>;

export const patchEndpointBody = z.object({
  url: z.optional(url),
  description: z.optional(description),
  eventTypes: z.optional(eventTypes),
  enabled: z.optional(z.boolean()),
});
export type EndpointPatch = z.infer<typeof patchEndpointBody>;

/** Endpoint ids are ours (24 hex characters); anything else is simply not found. */
export const endpointParams = z.object({ endpointId: z.string().check(z.minLength(1), z.maxLength(64)) });

export const listEndpointsQuery = z.object(cursorQueryFields);
export type ListEndpointsQuery = z.infer<typeof listEndpointsQuery>;

export const listAttemptsQuery = z.object({
  ...cursorQueryFields,
  /** Only the attempts of this event (its `id`, the `svix-id` header). */
  eventId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
export type ListAttemptsQuery = z.infer<typeof listAttemptsQuery>;
export const listDeadLettersQuery = z.object(cursorQueryFields);
export type ListDeadLettersQuery = z.infer<typeof listDeadLettersQuery>;

// ---- responses -------------------------------------------------------------------------------

export const endpointSchema = z
  .object({
    _id: z.string(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()),
    enabled: z.boolean(),
    _environmentId: z.string(),
    _organizationId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'WebhookEndpoint' });
export type Endpoint = z.infer<typeof endpointSchema>;

/** What create and rotate answer: the endpoint and its signing secret (shown only then). */
export const endpointWithSecretSchema = z
  .object({ ...endpointSchema.shape, secret: z.string() })
  .register(z.globalRegistry, { id: 'WebhookEndpointWithSecret' });
export type EndpointWithSecret = z.infer<typeof endpointWithSecretSchema>;

export const endpointListSchema = z
  .object({ data: z.array(endpointSchema), next: z.nullable(z.string()), previous: z.nullable(z.string()) })
  .register(z.globalRegistry, { id: 'WebhookEndpointList' });
export type EndpointList = z.infer<typeof endpointListSchema>;

export const attemptSchema = z
  .object({
    eventId: z.string(),
    eventType: z.string(),
    endpointId: z.string(),
    attempt: z.number(),
    /** The receiver's HTTP status; null when it gave none (timeout, connection refused, address not allowed). */
    statusCode: z.nullable(z.number()),
    success: z.boolean(),
    latencyMs: z.number(),
    /** The start of the receiver's answer (at most 4 KB), or why there was none. */
    response: z.string(),
    timestamp: z.string(),
    /** When the next attempt runs, if there is one. */
    nextAttemptAt: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'WebhookAttempt' });
export type Attempt = z.infer<typeof attemptSchema>;

export const attemptListSchema = z
  .object({ data: z.array(attemptSchema), next: z.nullable(z.string()), previous: z.nullable(z.string()) })
  .register(z.globalRegistry, { id: 'WebhookAttemptList' });

export const deadLetterSchema = z
  .object({
    eventId: z.string(),
    eventType: z.string(),
    endpointId: z.string(),
    attempts: z.number(),
    lastStatusCode: z.nullable(z.number()),
    lastResponse: z.string(),
    failedAt: z.string(),
    /** The event as it was sent (the signed body, parsed). */
    payload: z.unknown(),
  })
  .register(z.globalRegistry, { id: 'WebhookDeadLetter' });
export type DeadLetter = z.infer<typeof deadLetterSchema>;

export const deadLetterListSchema = z
  .object({ data: z.array(deadLetterSchema), next: z.nullable(z.string()), previous: z.nullable(z.string()) })
  .register(z.globalRegistry, { id: 'WebhookDeadLetterList' });
