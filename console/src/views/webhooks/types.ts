import { consolePath } from '../../components/console-path.ts';

// The fields of the webhook API's bodies (/v2/webhooks/endpoints, docs/webhooks.md) this view reads.

export interface Endpoint {
  _id: string;
  url: string;
  description: string;
  /** Empty: every event type. */
  eventTypes: string[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface EndpointWithSecret extends Endpoint {
  secret: string;
}

export interface Attempt {
  eventId: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  success: boolean;
  latencyMs: number;
  response: string;
  timestamp: string;
  nextAttemptAt: string | null;
}

export interface DeadLetter {
  eventId: string;
  eventType: string;
  attempts: number;
  lastStatusCode: number | null;
  lastResponse: string;
  failedAt: string;
  payload: unknown;
}

/** What create and edit send. */
export interface EndpointInput {
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
}

export const webhooksPath = (environmentId: string) => consolePath(environmentId, 'webhooks');
export const endpointPath = (environmentId: string, endpointId: string) =>
  `${webhooksPath(environmentId)}/${encodeURIComponent(endpointId)}`;
export const endpointUrl = (endpointId: string) => `/v2/webhooks/endpoints/${encodeURIComponent(endpointId)}`;
