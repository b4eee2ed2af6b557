import { cursorList, cursorOfShape, toPageRequest } from '../http/cursor-list.ts';
import type { EnvScope } from '../scope.ts';
import { attemptsPage, deadLettersPage } from './attempt-store.ts';
import { requireEndpoint } from './endpoints.ts';
import type { ListAttemptsQuery, ListDeadLettersQuery } from './schemas.ts';

// What was delivered to an endpoint: its attempts (each POST: status, latency, the start of the
// answer) and its dead letters, readable for RETENTION_DAYS (attempt-store.ts). 404 for an
// endpoint the environment does not have.

const ATTEMPT_KEY = /^ATT#evt_[0-9a-f]{24}#\d{2}$/;
const DEAD_LETTER_KEY = /^DEAD#evt_[0-9a-f]{24}$/;

export async function listAttempts(scope: EnvScope, endpointId: string, query: ListAttemptsQuery) {
  await requireEndpoint(scope, endpointId);
  return cursorList(await attemptsPage(scope, endpointId, query.eventId, toPageRequest(query, cursorOfShape(ATTEMPT_KEY))));
}

export async function listDeadLetters(scope: EnvScope, endpointId: string, query: ListDeadLettersQuery) {
  await requireEndpoint(scope, endpointId);
  return cursorList(await deadLettersPage(scope, endpointId, toPageRequest(query, cursorOfShape(DEAD_LETTER_KEY))));
}
