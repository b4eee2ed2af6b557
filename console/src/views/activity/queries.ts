import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { activityQuery } from './filters.ts';
import { stillRunning } from './status.ts';
import type { ActivityNotification, ActivityPage, MessagePage, WorkflowSummary } from './types.ts';

// The activity views' reads, keyed by environment so switching environment never shows another's data.

/** How often a timeline with jobs still running asks again. */
export const REFRESH_MS = 2_000;

export function useActivityPage(environmentId: string, params: URLSearchParams) {
  const query = activityQuery(params);
  return useQuery({
    queryKey: ['activity', environmentId, 'list', query],
    queryFn: ({ signal }) => api<ActivityPage>(environmentId, '/v1/notifications', { query, signal }),
    // Rows still running update their status by themselves, as the timeline does.
    refetchInterval: ({ state }) => (state.data?.data.some(stillRunning) ? REFRESH_MS : false),
  });
}

export function useNotification(environmentId: string, notificationId: string) {
  return useQuery({
    queryKey: ['activity', environmentId, 'notification', notificationId],
    queryFn: ({ signal }) =>
      api<ActivityNotification>(environmentId, `/v1/notifications/${encodeURIComponent(notificationId)}`, { signal }),
    // Refreshes while a job may still change, and stops once every job is final.
    refetchInterval: ({ state }) => (state.data && stillRunning(state.data) ? REFRESH_MS : false),
  });
}

/**
 * The messages the notification's jobs made (matched to a job by `_jobId`): the messages of its
 * transaction for its subscriber. Read again whenever the notification changes.
 */
export function useNotificationMessages(environmentId: string, notification: ActivityNotification | undefined) {
  const subscriberId = notification?.subscriber?.subscriberId;
  return useQuery({
    queryKey: ['activity', environmentId, 'messages', notification?._id, notification?.jobs?.map((j) => j.status).join()],
    enabled: Boolean(notification && subscriberId),
    queryFn: ({ signal }) =>
      api<MessagePage>(environmentId, '/v1/messages', {
        query: { transactionId: notification!.transactionId, subscriberId: subscriberId!, limit: 100 },
        signal,
      }),
    placeholderData: (previous) => previous,
  });
}

/** The environment's workflows, for the filter's choice by name (the feed filters by database id). */
export function useWorkflowOptions(environmentId: string) {
  return useQuery({
    queryKey: ['activity', environmentId, 'workflow-options'],
    queryFn: ({ signal }) =>
      api<{ workflows: WorkflowSummary[] }>(environmentId, '/v2/workflows', {
        query: { limit: 100, orderBy: 'name', orderDirection: 'ASC' },
        signal,
      }),
    staleTime: 60_000,
  });
}
