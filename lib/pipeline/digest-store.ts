import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { keys, type Key } from '../store/keys.ts';
import { queryAll } from '../store/query-pages.ts';
import type { TransactItem } from '../store/transact.ts';
import type { EnvScope } from '../scope.ts';
import type { StoredNotification } from './model.ts';

// Storage of digests. A series is the events of one subscriber, workflow step and digest value;
// its partition holds the open window (the item events join while its master job waits), the
// events that joined each window, and when the series last saw an event (the look-back of a
// backoff digest). The digest step decides; the writes that must go with its decision are
// returned as transaction items, the others are conditional writes of their own.

/** The digest value of events without a digest key, or whose key is not in the payload (the reference's). */
export const NO_DIGEST_VALUE = 'No-Value-Provided';

/** Joined events are kept this long after the window closes (the activity feed reads them). */
const EVENT_RETENTION_S = 90 * 86_400;

export interface DigestSeries {
  scope: EnvScope;
  workflowDbId: string;
  stepId: string;
  subscriberId: string;
  /** undefined: events without a value. */
  digestValue: string | undefined;
}

/** The series of a notification's digest step. */
export const digestSeries = (
  scope: EnvScope,
  notification: Pick<StoredNotification, '_templateId' | 'subscriberId'>,
  stepId: string,
  digestValue: string | undefined,
): DigestSeries => ({ scope, workflowDbId: notification._templateId, stepId, subscriberId: notification.subscriberId, digestValue });

export interface DigestWindow {
  /** The master job's id. */
  windowId: string;
  master: { notificationId: string; transactionId: string; jobId: string };
  closesAt: string;
}

/** An event joining a window: what the master's delivery reads of it. */
export interface DigestEvent {
  transactionId: string;
  notificationId: string;
  payload: Record<string, unknown>;
}

const keyArgs = (s: DigestSeries) => [s.scope, s.workflowDbId, s.stepId, s.subscriberId, s.digestValue ?? NO_DIGEST_VALUE] as const;
const windowKey = (s: DigestSeries): Key => keys.digestWindow(...keyArgs(s));

/** The series' open window, if any (read consistently: an event that just opened it counts). */
export async function readWindow(series: DigestSeries): Promise<DigestWindow | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: windowKey(series), ConsistentRead: true }));
  return Item as DigestWindow | undefined;
}

/** Opens `opened`, if no window is open or the open one is still `replacing` (found abandoned). */
export function openWindowWrite(series: DigestSeries, opened: DigestWindow, replacing: DigestWindow | undefined): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...windowKey(series), type: 'DigestWindow', ...opened },
      ConditionExpression: replacing ? 'windowId = :old' : 'attribute_not_exists(pk)',
      ...(replacing && { ExpressionAttributeValues: { ':old': replacing.windowId } }),
    },
  };
}

/** Adds the event to `window`, if that window is still open and the event not in it yet. */
export function joinWindowWrites(series: DigestSeries, window: DigestWindow, event: DigestEvent, now: Date): TransactItem[] {
  const eventKey = keys.digestEvent(...keyArgs(series), window.windowId, event.transactionId);
  return [
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: windowKey(series),
        ConditionExpression: 'windowId = :w',
        ExpressionAttributeValues: { ':w': window.windowId },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...eventKey,
          type: 'DigestEvent',
          ...event,
          createdAt: now.toISOString(),
          ttl: Math.floor(now.getTime() / 1000) + EVENT_RETENTION_S,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** Moves the window's end to `until`, if it is still the master's; false when it was closed meanwhile. */
export function extendWindow(series: DigestSeries, windowId: string, until: Date): Promise<boolean> {
  return writeIf(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: windowKey(series),
        UpdateExpression: 'SET closesAt = :until',
        ConditionExpression: 'windowId = :w',
        ExpressionAttributeValues: { ':until': until.toISOString(), ':w': windowId },
      }),
    ),
  );
}

/** Closes the window if it is still the master's (`windowId`); a window closed already, or opened again by another master, is left. */
export function closeWindow(series: DigestSeries, windowId: string): Promise<boolean> {
  return writeIf(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: windowKey(series),
        ConditionExpression: 'windowId = :w',
        ExpressionAttributeValues: { ':w': windowId },
      }),
    ),
  );
}

/** The payloads of the events that joined window `windowId`, in the order they joined. */
export async function joinedPayloads(series: DigestSeries, windowId: string): Promise<Record<string, unknown>[]> {
  return (await joinedEvents(series, windowId)).map((event) => event.payload);
}

/** The events that joined the window, oldest first: their transactionId, when they joined, their payload. */
export async function joinedEvents(
  series: DigestSeries,
  windowId: string,
): Promise<{ transactionId: string; at: string; payload: Record<string, unknown> }[]> {
  const { pk, skPrefix } = keys.digestEventsOfWindow(...keyArgs(series), windowId);
  const joined = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: true,
  });
  joined.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
  return joined.map((item) => ({
    transactionId: item.transactionId as string,
    at: item.createdAt as string,
    payload: item.payload as Record<string, unknown>,
  }));
}

/** When the series last saw an event (ISO time), if it is kept. */
export async function readLastEvent(series: DigestSeries): Promise<string | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.digestLastEvent(...keyArgs(series)), ConsistentRead: true }),
  );
  return Item?.at as string | undefined;
}

/** Records that the series saw an event at `now`. */
export function lastEventWrite(series: DigestSeries, now: Date): TransactItem {
  return {
    Put: { TableName: tableName(), Item: { ...keys.digestLastEvent(...keyArgs(series)), type: 'DigestLastEvent', at: now.toISOString() } },
  };
}
