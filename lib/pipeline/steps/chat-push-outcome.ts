import type { StoredIntegration } from '../../integrations/repository.ts';
import { markConnectionRevoked } from '../../channels/connection-repository.ts';
import { logger } from '../../logger.ts';
import { RevokedTokenError } from '../../providers/revoked-token.ts';
import { InvalidTokenError } from '../../providers/push/invalid-token.ts';
import { removeDeviceTokens } from '../../subscribers/remove-device-tokens.ts';
import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import type { ExecutionDetail } from '../model.ts';
import type { ChannelTarget, SkippedEntry } from './channel-targets.ts';
import { newMessage } from './message.ts';

// What chat and push steps record beyond a plain send: the entries they skipped (no webhook URL,
// no phone, no device tokens, no active integration), device tokens the provider called dead,
// which are removed from the subscriber, and channel connections whose token the provider
// refused, which are marked revoked (their endpoints are skipped until they are reconnected).

export function skipDetails(skipped: readonly SkippedEntry[], now: Date, messageId?: string): ExecutionDetail[] {
  return skipped.map((s) =>
    detail(
      s.detail,
      'Failed',
      {
        providerId: s.providerId,
        source: 'Credentials',
        ...(messageId && { messageId }),
        raw: { providerId: s.providerId, reason: s.errorText },
      },
      now,
    ),
  );
}

/** Nothing to send to: the step is canceled with a warning message (when an integration is known). */
export function noDestination(context: JobContext, channel: 'chat' | 'push', skipped: readonly SkippedEntry[]): Decision {
  const { now } = context;
  const first = skipped.find((s) => s.integration);
  if (skipped.length === 0 || !first) {
    const details = skipped.length === 0 ? [detail(DETAILS.noChatChannel, 'Warning', {}, now)] : skipDetails(skipped, now);
    return { status: 'canceled', details, after: next };
  }
  const integration = first.integration as StoredIntegration;
  const message = newMessage(context, channel, integration, { status: 'warning', errorId: first.errorId, errorText: first.errorText });
  return {
    status: 'canceled',
    details: skipDetails(skipped, now, message._id),
    job: { messageId: message._id, providerId: integration.providerId },
    message,
    after: next,
  };
}

/** Removes the device tokens a push provider called dead; one detail per token removed. */
export async function removeDeadTokens(
  context: JobContext,
  results: readonly { target: Pick<Partial<ChannelTarget>, 'settings'>; error?: Error }[],
  messageId: string,
  now: Date,
): Promise<ExecutionDetail[]> {
  const dead = results.flatMap((r) =>
    r.error instanceof InvalidTokenError && r.target.settings
      ? [{ providerId: r.target.settings.providerId, integrationId: r.target.settings._integrationId, token: r.error.token }]
      : [],
  );
  if (dead.length === 0) return [];
  try {
    const removed = await removeDeviceTokens(context.scope, context.notification.subscriberId, dead);
    return removed.map((d) =>
      detail(
        DETAILS.invalidPushToken,
        'Warning',
        { messageId, providerId: d.providerId, raw: { providerId: d.providerId, deviceToken: d.token } },
        now,
      ),
    );
  } catch (error) {
    // The send's outcome stands; the token is tried (and reported) again next time.
    logger.warn('Invalid push tokens could not be removed', { subscriberId: context.notification.subscriberId, error: error as Error });
    return [];
  }
}

/** Marks revoked the connections whose token the provider refused; one detail per connection. */
export async function markRevokedConnections(
  context: JobContext,
  results: readonly { target: Pick<Partial<ChannelTarget>, 'connection' | 'integration'>; error?: Error }[],
  messageId: string,
  now: Date,
): Promise<ExecutionDetail[]> {
  const revoked = new Map<string, { reason: string; providerId: string }>();
  for (const r of results) {
    if (r.error instanceof RevokedTokenError && r.target.connection)
      revoked.set(r.target.connection.identifier, { reason: r.error.reason, providerId: r.target.integration?.providerId ?? '' });
  }
  const details: ExecutionDetail[] = [];
  for (const [identifier, { reason, providerId }] of revoked) {
    try {
      await markConnectionRevoked(context.scope, identifier, reason, now.toISOString());
      details.push(
        detail(DETAILS.connectionRevoked, 'Warning', { messageId, providerId, raw: { connectionIdentifier: identifier, reason } }, now),
      );
    } catch (error) {
      // The send's outcome stands; the next send that is refused marks it.
      logger.warn('A revoked channel connection could not be marked', { connectionIdentifier: identifier, error: error as Error });
    }
  }
  return details;
}
