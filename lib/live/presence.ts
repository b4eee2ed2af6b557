import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../config.ts';
import { db } from '../store/client.ts';
import { writeIf } from '../store/conditions.ts';
import { keys } from '../store/keys.ts';
import type { EnvScope } from '../scope.ts';

// Whether a subscriber may have an inbox socket open, known without a read of its own: $connect
// stamps the subscriber's profile with `liveUntil`, the latest time any socket it opened can
// still be open (API Gateway closes them after 2 hours), and the in-app step reads the profile
// anyway. A delivery to a subscriber whose stamp has passed is not announced: no live queue
// message, no push, no Query for sockets that cannot exist. The stamp is an upper bound, never
// cleared on disconnect (another socket may still be open): at worst a closed socket's subscriber
// is announced to for two more hours, as every subscriber would be without it. It is an attribute
// of the profile that only this UpdateItem writes; every other profile write names its own
// attributes (lib/subscribers/repository.ts), and views never show it.

export const PRESENCE_ATTRIBUTE = 'liveUntil';

/** Stamps the profile with `until` (epoch seconds) unless a later stamp is there; no profile, no stamp. */
export async function markLive(scope: EnvScope, subscriberId: string, until: number): Promise<void> {
  await writeIf(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.subscriber(scope, subscriberId),
        UpdateExpression: 'SET #until = :until',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#until) OR #until < :until)',
        ExpressionAttributeNames: { '#until': PRESENCE_ATTRIBUTE },
        ExpressionAttributeValues: { ':until': until },
      }),
    ),
  );
}

/** The stamp of a stored profile item (epoch seconds), if any. */
export const liveUntilOf = (profile: Record<string, unknown> | undefined): number | undefined => {
  const value = profile?.[PRESENCE_ATTRIBUTE];
  return typeof value === 'number' ? value : undefined;
};

export const mayHaveSockets = (liveUntil: number | undefined, now: Date): boolean =>
  liveUntil !== undefined && liveUntil * 1000 > now.getTime();
