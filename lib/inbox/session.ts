import { apiKeysOfEnvironment } from '../auth/api-keys.ts';
import { signSessionToken } from '../auth/session-token.ts';
import { positiveNumber, ENV } from '../config.ts';
import { contextKeysOf } from '../context-keys.ts';
import { upsertContexts } from '../contexts/upsert.ts';
import { BadRequestError, NotFoundError, ValidationError } from '../errors.ts';
import { listIntegrationsOfChannel } from '../integrations/repository.ts';
import { setScheduleIfUnset } from '../preferences/repository.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriber } from '../subscribers/repository.ts';
import { upsertSubscriber } from '../subscribers/upsert.ts';
import { findEnvironmentByIdentifier } from '../accounts/environments.ts';
import { unreadCounts, type UnreadCounts } from './counts.ts';
import { contextHashValid, subscriberHashValid } from './hmac.ts';
import type { SessionInput } from './schemas.ts';

// POST /v1/inbox/session: a browser opens a subscriber's inbox with the environment's public
// application identifier. The subscriber is made if missing; its profile is changed only under a
// valid HMAC hash. The token it gets opens that subscriber's messages of that context in that
// environment, and nothing else.

const DEFAULT_MAX_SNOOZE_HOURS = 720;

export interface Session {
  token: string;
  totalUnreadCount: number;
  unreadCount: UnreadCounts;
  removeNovuBranding: boolean;
  isDevelopmentMode: boolean;
  maxSnoozeDurationHours: number;
  applicationIdentifier: string;
  contextKeys: string[];
}

export const maxSnoozeHours = (): number => positiveNumber(ENV.inboxMaxSnoozeHours, DEFAULT_MAX_SNOOZE_HOURS);

export async function openSession(input: SessionInput): Promise<Session> {
  const definition =
    typeof input.subscriber === 'string'
      ? { subscriberId: input.subscriber }
      : { ...input.subscriber, subscriberId: input.subscriber?.subscriberId ?? input.subscriberId ?? '' };
  const subscriberId = definition.subscriberId.trim();
  if (!subscriberId)
    throw ValidationError.forField('subscriber.subscriberId', 'Subscriber ID is required', definition.subscriberId ?? null);
  if (!input.applicationIdentifier) {
    // Keyless inboxes (a throw-away environment per visitor) are a feature of the reference's cloud.
    throw ValidationError.forField('applicationIdentifier', 'A valid application identifier is required', null);
  }
  const environment = await findEnvironmentByIdentifier(input.applicationIdentifier);
  if (!environment) throw new BadRequestError('Please provide a valid application identifier');
  const scope: EnvScope = { organizationId: environment.organizationId, environmentId: environment.environmentId };

  const integration = (await listIntegrationsOfChannel(scope, 'in_app')).find((i) => i.active);
  if (!integration) throw new NotFoundError('The active in-app integration could not be found');

  let signed = false;
  if (integration.credentials.hmac === true) {
    const apiKeys = await apiKeysOfEnvironment(scope);
    if (!subscriberHashValid(apiKeys, subscriberId, input.subscriberHash)) throw new BadRequestError('Please provide a valid HMAC hash');
    if (input.context && !contextHashValid(apiKeys, input.contextAsSent, input.contextHash))
      throw new BadRequestError('Please provide a valid context HMAC hash');
    signed = true;
  }

  // The profile a page sends is trusted only when signed; unsigned, it only makes a new subscriber.
  const existing = await getSubscriber(scope, subscriberId);
  const subscriber = existing && !signed ? existing : await upsertSubscriber(scope, { ...definition, subscriberId });
  if (input.defaultSchedule) await setScheduleIfUnset(scope, subscriberId, input.defaultSchedule);

  // As a trigger does: the contexts the session names are created if new.
  await upsertContexts(scope, input.context, new Date());
  const contextKeys = contextKeysOf(input.context);
  const unreadCount = await unreadCounts({ scope, subscriberId, contextKeys });
  const token = await signSessionToken({ ...scope, subscriberId, subscriberDbId: subscriber._id, contextKeys });
  return {
    token,
    totalUnreadCount: unreadCount.total,
    unreadCount,
    // Not the reference's service: no "Inbox by Novu" footer outside development.
    removeNovuBranding: true,
    isDevelopmentMode: environment.name !== 'Production',
    maxSnoozeDurationHours: maxSnoozeHours(),
    applicationIdentifier: input.applicationIdentifier,
    contextKeys,
  };
}
