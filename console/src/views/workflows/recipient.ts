import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import type { CursorPage } from '../../api/cursor-page.ts';
import type { Subscriber } from '../subscribers/types.ts';
import type { Workflow } from './types.ts';

// What a test event's recipient must have for every step of the workflow to deliver: an email
// step sends to an address, an SMS step to a phone. The subscriber's profile is read through the
// list's subscriberId filter (an unknown id is an empty page, not a 404 in the browser's log).

export interface ContactNeed {
  field: 'email' | 'phone';
  /** The first step that needs it, named in the message. */
  stepName: string;
}

export function contactNeeds(workflow: Workflow): ContactNeed[] {
  const needs: ContactNeed[] = [];
  const email = workflow.steps.find((step) => step.type === 'email');
  const sms = workflow.steps.find((step) => step.type === 'sms');
  if (email) needs.push({ field: 'email', stepName: email.name });
  if (sms) needs.push({ field: 'phone', stepName: sms.name });
  return needs;
}

const profileQuery = (environmentId: string, subscriberId: string) => ({
  queryKey: ['subscribers', environmentId, 'by-id', subscriberId],
  queryFn: async ({ signal }: { signal?: AbortSignal }) =>
    (await api<CursorPage<Subscriber>>(environmentId, '/v2/subscribers', { query: { subscriberId, limit: 1 }, signal })).data[0] ?? null,
  staleTime: 5_000,
});

/** The profile of `subscriberId` (null: no such subscriber yet), read once typing pauses. */
export function useRecipientProfile(environmentId: string, subscriberId: string, enabled: boolean) {
  const [settled, setSettled] = useState(subscriberId);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(subscriberId), 300);
    return () => clearTimeout(timer);
  }, [subscriberId]);
  return useQuery({ ...profileQuery(environmentId, settled), enabled: enabled && settled.length > 0 });
}

/** The same read, now (a submit does not wait for the pause). */
export const fetchRecipientProfile = (client: QueryClient, environmentId: string, subscriberId: string) =>
  client.fetchQuery(profileQuery(environmentId, subscriberId));

/** An address a test may use for a subscriber that has none: the id itself when it is one. */
export const testEmailFor = (subscriberId: string): string =>
  /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(subscriberId) ? subscriberId : `${subscriberId.replace(/[^A-Za-z0-9._-]/g, '-')}@example.com`;
