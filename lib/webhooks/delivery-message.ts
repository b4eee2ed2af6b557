import type { EnvScope } from '../scope.ts';
import type { WebhookEventType } from './event-types.ts';

// What the `webhooks` queue carries: one attempt to deliver one event to one endpoint. The body
// is the event exactly as it is signed and sent, fixed when the event was made, so every attempt
// sends the same bytes under the same id (svix-id).

export interface WebhookDelivery {
  kind: 'webhook';
  organizationId: string;
  environmentId: string;
  endpointId: string;
  eventId: string;
  eventType: WebhookEventType;
  /** The JSON body of every attempt. */
  payload: string;
  /** 1-based. */
  attempt: number;
  /** When the attempt is due (ISO); a wait longer than SQS holds a message is chained until then. */
  dueAt?: string;
}

export const scopeOfDelivery = (m: WebhookDelivery): EnvScope => ({ organizationId: m.organizationId, environmentId: m.environmentId });

export const isDelivery = (m: Record<string, unknown>): boolean =>
  m.kind === 'webhook' &&
  typeof m.endpointId === 'string' &&
  typeof m.eventId === 'string' &&
  typeof m.payload === 'string' &&
  typeof m.attempt === 'number';
