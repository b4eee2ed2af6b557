import type { EnvScope } from '../scope.ts';
import { indexEntry, indexPartition } from './index-keys.ts';
import { INDEX } from './table.ts';

// Every key of the single table is built here and nowhere else. Keys of tenant data start with
// the organization and, where the data belongs to one environment, the environment as well.
// docs/data-model.md lists the access pattern each key serves.

export interface Key {
  pk: string;
  sk: string;
}

const org = (organizationId: string) => `ORG#${organizationId}`;
const env = (s: EnvScope) => `ORG#${s.organizationId}#ENV#${s.environmentId}`;

/**
 * The indexes each kind of item is on, by what the kind uses them for. Its index keys below are
 * built from these, and its reader strips exactly these (withoutKeys, lib/store/index-keys.ts):
 * putting a kind on another index is an entry here, a key builder, and (for a new index) its
 * definition in table.ts, which the CDK stack and the local runtime create the table from.
 */
export const INDEXES = {
  apiKey: { ofEnvironment: INDEX.shared1 },
  integration: { ofChannel: INDEX.shared1 },
  subscriber: { list: INDEX.shared1, byEmail: INDEX.shared2 },
  topic: { list: INDEX.shared1 },
  subscription: { ofSubscriber: INDEX.shared1 },
  workflow: { byDbId: INDEX.shared1, list: INDEX.shared2 },
  translationGroup: { list: INDEX.shared1 },
  translation: { ofLocale: INDEX.shared1 },
  context: { list: INDEX.shared1 },
  tenant: { list: INDEX.shared1 },
  channelConnection: { list: INDEX.shared1 },
  channelEndpoint: { list: INDEX.shared1, ofSubscriber: INDEX.shared2 },
  layout: { byDbId: INDEX.shared1, list: INDEX.shared2 },
  notification: { byDay: INDEX.activityByDay, ofSubscriber: INDEX.activityOfSubscriber },
  message: {
    byProviderId: INDEX.shared1,
    ofEnvironment: INDEX.messagesOfEnvironment,
    unseen: INDEX.unseenMessages,
    inbox: INDEX.inbox,
    unread: INDEX.unreadInbox,
  },
} as const;

// ---- write sharding ---------------------------------------------------------------------------
// A partition (of the table or of an index) takes at most 1,000 write units and 3,000 read units
// a second. A key that one large fan-out writes for every recipient is spread over shards: the
// shard of an item is a stable hash of one of its ids, readers query every shard and merge.
// Shard 0's key is always the key used before sharding, so items written before are found as
// shard 0's. The arithmetic behind each count is in docs/data-model.md ("A 1,000,000-subscriber
// fan-out, partition by partition"); the per-delivery figures are measured item sizes.

/**
 * Partitions a fan-out transaction's notifications are spread over (by subscriberId). A
 * delivery writes its notification (2.2–2.4 KB: 3 write units) up to three times (create, the
 * send's lease, its outcome) and reads it twice (consistent: 1 read unit each): 9 WCU and 2 RCU.
 * 1,000,000 deliveries in 10 minutes (1,700/s) would put 15,300 WCU/s on one key, 15 times a
 * partition's 1,000. Over 64: 239 WCU/s each, under half a partition even at twice the rate (32
 * would leave no room for bursts: 956 at twice the rate). Stored on the trigger
 * (`notificationShards`): a reader takes it from there, never from this constant.
 */
export const TRANSACTION_SHARDS = 64;

/**
 * A trigger to at most this many single recipients (no topic, no broadcast) keeps its
 * notifications in one partition (today's key): all their writes (≤ 9 WCU each) then fit one
 * second of one partition's 1,000. More recipients than that are sharded like a topic.
 */
export const MAX_UNSHARDED_RECIPIENTS = 100;

/**
 * Shards of a day's activity index partition (gsi3, by notification id). An entry (~410 bytes:
 * 1 WCU) is written once per notification, and its sort key (the id) grows with time, so
 * DynamoDB cannot split the partition's writes apart: 1,700 notifications/s is 1.7 times a
 * partition. Over 8: 212 WCU/s each, 425 at twice the rate, room left for the environment's other
 * triggers of the day. A feed page queries the 8 shards of a day at once and merges them.
 */
export const ACTIVITY_DAY_SHARDS = 8;

/**
 * Shards of the environment's message list (gsi5, by message id). An entry is written per
 * message and again by each read/seen mark; it holds the payload (the lists filter on it), so
 * ~390 bytes with an empty payload (1 WCU) and 2–3 WCU with a 1–2 KB one: 3,400–5,100 WCU/s at
 * 1,700 deliveries/s, on a sort key that grows with time. Over 16: 212–319 WCU/s each, under
 * two thirds of a partition even at twice the rate.
 */
export const MESSAGE_LIST_SHARDS = 16;

/**
 * The shard (0 … shards − 1) of `value`: FNV-1a over its UTF-16 code units, then murmur3's
 * finalizer so every bit of the hash depends on every character (ids that differ only in their
 * last characters spread evenly too). Stable: it is part of stored keys, never change it.
 */
export function shardOf(value: string, shards: number): number {
  if (shards <= 1) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % shards;
}

const shardNumbers = (shards: number): number[] => Array.from({ length: Math.max(1, shards) }, (_, n) => n);

/**
 * A transaction's partition `n`. Shard 0 is the transaction's own key (the trigger's, and every
 * notification of an unsharded trigger); shard n ≥ 1 puts its number in the kind, not after the
 * transactionId, which may hold `#` itself: `TXN<n>#` can never be another transaction's `TXN#`.
 */
const transactionShard = (s: EnvScope, transactionId: string, n: number) =>
  n === 0 ? `${env(s)}#TXN#${transactionId}` : `${env(s)}#TXN${n}#${transactionId}`;
/** A day's activity index partition `n` (shard 0: the day's key from before sharding). */
const activityDayShard = (s: EnvScope, day: string, n: number) => (n === 0 ? `${env(s)}#ACT#${day}` : `${env(s)}#ACT#${day}#${n}`);
/** The partition of one digest series: a subscriber's events of one workflow step and digest value. */
const digestSeries = (s: EnvScope, workflowDbId: string, stepId: string, subscriberId: string, digestValue: string) =>
  `${env(s)}#DIGEST#${workflowDbId}#${stepId}#${subscriberId}#${digestValue}`;
/** The environment's message list partition `n` (shard 0: the key from before sharding). */
const messageListShard = (s: EnvScope, n: number) => (n === 0 ? `${env(s)}#MSGS` : `${env(s)}#MSGS#${n}`);

/**
 * The scope a tenant-data key belongs to (`ORG#<org>#ENV#<env>#…`), or undefined for other keys: for readers
 * of stored changes (the table's stream).
 */
export function scopeOfKey(pk: string): EnvScope | undefined {
  const match = /^ORG#([^#]+)#ENV#([^#]+)#/.exec(pk);
  return match ? { organizationId: match[1]!, environmentId: match[2]! } : undefined;
}

/** The subscriber whose partition a key is (`…#SUB#<subscriberId>`), if it is one. */
export function subscriberIdOfKey(pk: string): string | undefined {
  return /#SUB#(.+)$/.exec(pk)?.[1];
}

/** The workflow database id of a subscriber's workflow preference (`PREF#WF#<id>`); undefined for the global one. */
export function workflowOfPreferenceSortKey(sk: string): string | undefined {
  return sk.startsWith('PREF#WF#') ? sk.slice('PREF#WF#'.length) : undefined;
}

/**
 * The sort keys (exact, or prefixes ending in `#`) of the items whose stored changes make webhook events:
 * messages, workflows, preferences.
 */
export const WEBHOOK_SOURCE_SORT_KEYS = { messagePrefix: 'MSG#', workflow: 'WORKFLOW', preferencePrefix: 'PREF#' } as const;

/** The sort keys (exact, or prefixes) of the items whose stored changes the engagement counters count: messages, triggers. */
export const ENGAGEMENT_SOURCE_SORT_KEYS = { messagePrefix: 'MSG#', trigger: 'EVENT' } as const;

/** A message item's `type`: what a stored change under a message's sort key must carry to be read as one. */
export const MESSAGE_ITEM_TYPE = 'Message';

export const keys = {
  organization: (organizationId: string): Key => ({ pk: org(organizationId), sk: 'ORG' }),

  environment: (organizationId: string, environmentId: string): Key => ({
    pk: org(organizationId),
    sk: `ENV#${environmentId}`,
  }),
  /** The organization's settings (default and target locales, branding), beside the organization. */
  organizationSettings: (organizationId: string): Key => ({ pk: org(organizationId), sk: 'SETTINGS' }),
  environmentsOfOrganization: (organizationId: string) => ({ pk: org(organizationId), skPrefix: 'ENV#' }),
  /**
   * Marker that makes an environment's name unique within the organization (case-insensitive),
   * written in the environment's own transaction. Development and Production have none: their
   * names are refused to every other environment anyway.
   */
  environmentName: (organizationId: string, name: string): Key => ({ pk: org(organizationId), sk: `ENVNAME#${name.toLowerCase()}` }),
  /**
   * An environment variable: the organization's, by key, with its value for each environment
   * inside (lib/environment-variables). All of them are one Query of the organization's partition.
   */
  environmentVariable: (organizationId: string, key: string): Key => ({ pk: org(organizationId), sk: `ENVVAR#${key}` }),
  environmentVariablesOfOrganization: (organizationId: string) => ({ pk: org(organizationId), skPrefix: 'ENVVAR#' }),

  /** API keys are looked up by the hash of the key itself: that lookup is what finds the scope. */
  apiKey: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** gsi1: an environment's API keys (their encrypted copies verify inbox HMAC hashes). */
  apiKeysOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.apiKey.ofEnvironment, `${env(s)}#APIKEYS`),
  apiKeyOfEnvironmentIndex: (s: EnvScope, keyHash: string) => indexEntry(INDEXES.apiKey.ofEnvironment, `${env(s)}#APIKEYS`, keyHash),
  /**
   * An environment's public application identifier (what `<Inbox />` is configured with) is
   * looked up by itself, like an API key: that lookup is what finds the scope.
   */
  applicationIdentifier: (identifier: string): Key => ({ pk: `APPID#${identifier}`, sk: 'APPID' }),
  /**
   * An environment looked up by its id alone, for the one URL that names no organization: a
   * provider's delivery events (/v2/inbound-webhooks/delivery-providers/{environmentId}/…).
   */
  environmentById: (environmentId: string): Key => ({ pk: `ENVID#${environmentId}`, sk: 'ENVID' }),
  /** The stage's key for signing subscriber session tokens (stored wrapped by KMS or the local key). */
  sessionSigningKey: (): Key => ({ pk: 'STAGE', sk: 'SESSIONKEY' }),
  // The local runtime's long waits (lib/queue/table-scheduler.ts): the stage's own, like
  // EventBridge Scheduler's group in AWS, so not under one environment (the message they carry
  // names its scope). Sorted by due time, so the poller queries what is due.
  localWake: (dueAt: string, name: string): Key => ({ pk: 'WAKES', sk: `${dueAt}#${name}` }),
  /** The wakes due at `now` (ISO): sort keys up to `now` and any name after it. */
  localWakesDue: (now: string) => ({ pk: 'WAKES', skTo: `${now}#~` }),

  integration: (organizationId: string, integrationId: string): Key => ({
    pk: org(organizationId),
    sk: `INT#${integrationId}`,
  }),
  integrationsOfOrganization: (organizationId: string) => ({ pk: org(organizationId), skPrefix: 'INT#' }),
  /** gsi1: the integrations of one environment and channel (provider selection, primary rules). */
  integrationsOfChannel: (s: EnvScope, channel: string) => indexPartition(INDEXES.integration.ofChannel, `${env(s)}#INTCH#${channel}`),
  integrationChannelIndex: (s: EnvScope, channel: string, integrationId: string) =>
    indexEntry(INDEXES.integration.ofChannel, `${env(s)}#INTCH#${channel}`, integrationId),
  /**
   * The order of an environment's active email or sms integrations (primary first). Every change
   * of priority or primary is a transaction conditioned on this item, read consistently, so
   * concurrent changes of one channel serialize and never plan from a lagging index.
   */
  integrationChannelOrder: (s: EnvScope, channel: string): Key => ({
    pk: org(s.organizationId),
    sk: `INTORDER#${s.environmentId}#${channel}`,
  }),
  /** Marker item that makes an identifier unique within the organization. */
  integrationIdentifier: (organizationId: string, identifier: string): Key => ({
    pk: org(organizationId),
    sk: `INTIDENT#${identifier}`,
  }),

  // ---- subscribers ----------------------------------------------------------------------------
  /** gsi1: the environment's subscribers in creation order; gsi2: by email. */
  subscriber: (s: EnvScope, subscriberId: string): Key => ({ pk: `${env(s)}#SUB#${subscriberId}`, sk: 'PROFILE' }),
  subscribersOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.subscriber.list, `${env(s)}#SUBS`),
  subscriberListIndex: (s: EnvScope, createdAt: string, id: string) =>
    indexEntry(INDEXES.subscriber.list, `${env(s)}#SUBS`, `${createdAt}#${id}`),
  subscribersByEmail: (s: EnvScope, email: string) =>
    indexPartition(INDEXES.subscriber.byEmail, `${env(s)}#SUBEMAIL#${email.toLowerCase()}`),
  subscriberEmailIndex: (s: EnvScope, email: string, subscriberId: string) =>
    indexEntry(INDEXES.subscriber.byEmail, `${env(s)}#SUBEMAIL#${email.toLowerCase()}`, subscriberId),
  /** Everything stored under a subscriber's partition (profile, preferences, counters, messages). */
  subscriberPartition: (s: EnvScope, subscriberId: string) => ({ pk: `${env(s)}#SUB#${subscriberId}` }),

  // ---- preferences (in the subscriber's partition) ----------------------------------------------
  subscriberGlobalPreference: (s: EnvScope, subscriberId: string): Key => ({
    pk: `${env(s)}#SUB#${subscriberId}`,
    sk: 'PREF#GLOBAL',
  }),
  subscriberWorkflowPreference: (s: EnvScope, subscriberId: string, workflowDbId: string): Key => ({
    pk: `${env(s)}#SUB#${subscriberId}`,
    sk: `PREF#WF#${workflowDbId}`,
  }),
  /**
   * The profile and every preference item of a subscriber, as one sort-key range: `PREF#…` sorts
   * just before `PROFILE`, and no other item of the partition (`MSG#`, `TOPICCOUNT`) falls between.
   * `skTo` is the profile's own sort key.
   */
  subscriberProfileAndPreferences: (s: EnvScope, subscriberId: string) => ({
    pk: `${env(s)}#SUB#${subscriberId}`,
    skFrom: 'PREF#',
    skTo: 'PROFILE',
  }),

  // ---- topics ---------------------------------------------------------------------------------
  /** gsi1: the environment's topics in creation order. */
  topic: (s: EnvScope, topicKey: string): Key => ({ pk: `${env(s)}#TOPIC#${topicKey}`, sk: 'TOPIC' }),
  topicsOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.topic.list, `${env(s)}#TOPICS`),
  topicListIndex: (s: EnvScope, createdAt: string, id: string) => indexEntry(INDEXES.topic.list, `${env(s)}#TOPICS`, `${createdAt}#${id}`),
  /** A subscription lives in its topic's partition; gsi1 lists a subscriber's subscriptions. */
  topicSubscription: (s: EnvScope, topicKey: string, subscriberId: string): Key => ({
    pk: `${env(s)}#TOPIC#${topicKey}`,
    sk: `SUB#${subscriberId}`,
  }),
  subscribersOfTopic: (s: EnvScope, topicKey: string) => ({ pk: `${env(s)}#TOPIC#${topicKey}`, skPrefix: 'SUB#' }),
  subscriptionsOfSubscriber: (s: EnvScope, subscriberId: string) =>
    indexPartition(INDEXES.subscription.ofSubscriber, `${env(s)}#SUB#${subscriberId}#TOPICS`),
  subscriptionOfSubscriberIndex: (s: EnvScope, subscriberId: string, subscriptionId: string) =>
    indexEntry(INDEXES.subscription.ofSubscriber, `${env(s)}#SUB#${subscriberId}#TOPICS`, subscriptionId),
  /** Kept as subscriptions change, so totalCount never counts items. */
  subscriptionCount: (s: EnvScope, subscriberId: string): Key => ({ pk: `${env(s)}#SUB#${subscriberId}`, sk: 'TOPICCOUNT' }),

  // ---- workflows ------------------------------------------------------------------------------
  /** By workflowId (the trigger identifier); gsi1 by database id; gsi2 lists the environment's. */
  workflow: (s: EnvScope, workflowId: string): Key => ({ pk: `${env(s)}#WF#${workflowId}`, sk: 'WORKFLOW' }),
  workflowByDbId: (s: EnvScope, workflowDbId: string) => indexPartition(INDEXES.workflow.byDbId, `${env(s)}#WFID#${workflowDbId}`),
  workflowDbIdIndex: (s: EnvScope, workflowDbId: string) =>
    indexEntry(INDEXES.workflow.byDbId, `${env(s)}#WFID#${workflowDbId}`, 'WORKFLOW'),
  workflowsOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.workflow.list, `${env(s)}#WORKFLOWS`),
  workflowListIndex: (s: EnvScope, createdAt: string, workflowDbId: string) =>
    indexEntry(INDEXES.workflow.list, `${env(s)}#WORKFLOWS`, `${createdAt}#${workflowDbId}`),

  // ---- translations ---------------------------------------------------------------------------
  /**
   * A translatable resource's group (its name and identifier as last written) and its locales'
   * contents share one partition, keyed by the resource's database id (a workflow's identifier can
   * change): the renderer reads every locale in one Query. gsi1 lists the environment's groups
   * (the list route) and, per locale, the resources that have content in it (master JSON export).
   */
  /** `pk` alone: the whole partition (group and locales); with `skPrefix`: the locales. */
  translationsOfResource: (s: EnvScope, resourceType: string, resourceDbId: string) => ({
    pk: `${env(s)}#TRANSLATIONS#${resourceType}#${resourceDbId}`,
    skPrefix: 'LOCALE#',
  }),
  translationGroup: (s: EnvScope, resourceType: string, resourceDbId: string): Key => ({
    pk: `${env(s)}#TRANSLATIONS#${resourceType}#${resourceDbId}`,
    sk: 'GROUP',
  }),
  translation: (s: EnvScope, resourceType: string, resourceDbId: string, locale: string): Key => ({
    pk: `${env(s)}#TRANSLATIONS#${resourceType}#${resourceDbId}`,
    sk: `LOCALE#${locale}`,
  }),
  translationGroupsOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.translationGroup.list, `${env(s)}#TRANSLATIONGROUPS`),
  translationGroupListIndex: (s: EnvScope, createdAt: string, resourceType: string, resourceDbId: string) =>
    indexEntry(INDEXES.translationGroup.list, `${env(s)}#TRANSLATIONGROUPS`, `${createdAt}#${resourceType}#${resourceDbId}`),
  translationsOfLocale: (s: EnvScope, locale: string) => indexPartition(INDEXES.translation.ofLocale, `${env(s)}#TRANSLOCALE#${locale}`),
  translationLocaleIndex: (s: EnvScope, locale: string, resourceType: string, resourceDbId: string) =>
    indexEntry(INDEXES.translation.ofLocale, `${env(s)}#TRANSLOCALE#${locale}`, `${resourceType}#${resourceDbId}`),

  // ---- contexts -------------------------------------------------------------------------------
  /** By `type:id` (a trigger's `context`); gsi1: the environment's contexts in creation order. */
  context: (s: EnvScope, contextKey: string): Key => ({ pk: `${env(s)}#CONTEXT#${contextKey}`, sk: 'CONTEXT' }),
  contextsOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.context.list, `${env(s)}#CONTEXTS`),
  contextListIndex: (s: EnvScope, createdAt: string, contextKey: string) =>
    indexEntry(INDEXES.context.list, `${env(s)}#CONTEXTS`, `${createdAt}#${contextKey}`),

  // ---- tenants --------------------------------------------------------------------------------
  /** By identifier (the trigger's `tenant`); gsi1: the environment's tenants in creation order. */
  tenant: (s: EnvScope, identifier: string): Key => ({ pk: `${env(s)}#TENANT#${identifier}`, sk: 'TENANT' }),
  tenantsOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.tenant.list, `${env(s)}#TENANTS`),
  tenantListIndex: (s: EnvScope, createdAt: string, id: string) =>
    indexEntry(INDEXES.tenant.list, `${env(s)}#TENANTS`, `${createdAt}#${id}`),

  // ---- chat channel connections and endpoints (lib/channels) ------------------------------------
  /** A workspace's token for an integration, by identifier; gsi1: the environment's, in creation order. */
  channelConnection: (s: EnvScope, identifier: string): Key => ({ pk: `${env(s)}#CHCONN#${identifier}`, sk: 'CHCONN' }),
  channelConnectionsOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.channelConnection.list, `${env(s)}#CHCONNS`),
  channelConnectionListIndex: (s: EnvScope, createdAt: string, id: string) =>
    indexEntry(INDEXES.channelConnection.list, `${env(s)}#CHCONNS`, `${createdAt}#${id}`),
  /**
   * Claims the one connection an integration may have per resource (a subscriber, or a context
   * for shared connections): written in the connection's own transaction, so two creates race safely.
   */
  channelConnectionClaim: (s: EnvScope, integrationIdentifier: string, resource: string): Key => ({
    pk: `${env(s)}#CHCONNCLAIM#${integrationIdentifier}#${resource}`,
    sk: 'CHCONNCLAIM',
  }),
  /** Where a chat step posts, by identifier; gsi1: the environment's; gsi2: the subscriber's (what delivery reads). */
  channelEndpoint: (s: EnvScope, identifier: string): Key => ({ pk: `${env(s)}#CHEP#${identifier}`, sk: 'CHEP' }),
  channelEndpointsOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.channelEndpoint.list, `${env(s)}#CHEPS`),
  channelEndpointListIndex: (s: EnvScope, createdAt: string, id: string) =>
    indexEntry(INDEXES.channelEndpoint.list, `${env(s)}#CHEPS`, `${createdAt}#${id}`),
  channelEndpointsOfSubscriber: (s: EnvScope, subscriberId: string) =>
    indexPartition(INDEXES.channelEndpoint.ofSubscriber, `${env(s)}#SUB#${subscriberId}#CHEPS`),
  channelEndpointSubscriberIndex: (s: EnvScope, subscriberId: string, createdAt: string, id: string) =>
    indexEntry(INDEXES.channelEndpoint.ofSubscriber, `${env(s)}#SUB#${subscriberId}#CHEPS`, `${createdAt}#${id}`),

  /** A used OAuth state (its `jti`): written once by the callback, so a replayed state is refused; expires by `ttl`. */
  chatOAuthStateUse: (s: EnvScope, stateId: string): Key => ({ pk: `${env(s)}#CHOAUTHSTATE#${stateId}`, sk: 'USED' }),

  /** A Telegram deep-link token (createMobileLink): read and deleted in one step by the bot's `/start`; expires by `ttl`. */
  telegramLinkToken: (s: EnvScope, token: string): Key => ({ pk: `${env(s)}#TGLINK#${token}`, sk: 'LINK' }),

  // ---- layouts ---------------------------------------------------------------------------------
  /**
   * By identifier (what steps name); gsi1 by database id; gsi2 lists the environment's. The
   * layout's partition also holds who uses it: one item per workflow whose email steps name it
   * (`USEDBY#<workflowDbId>`) and their count (`USECOUNT`), both written in the workflow's own
   * transaction, so a delete can be refused atomically while any workflow uses the layout.
   */
  layout: (s: EnvScope, identifier: string): Key => ({ pk: `${env(s)}#LAYOUT#${identifier}`, sk: 'LAYOUT' }),
  layoutByDbId: (s: EnvScope, layoutDbId: string) => indexPartition(INDEXES.layout.byDbId, `${env(s)}#LAYOUTID#${layoutDbId}`),
  layoutDbIdIndex: (s: EnvScope, layoutDbId: string) => indexEntry(INDEXES.layout.byDbId, `${env(s)}#LAYOUTID#${layoutDbId}`, 'LAYOUT'),
  layoutsOfEnvironment: (s: EnvScope) => indexPartition(INDEXES.layout.list, `${env(s)}#LAYOUTS`),
  layoutListIndex: (s: EnvScope, createdAt: string, layoutDbId: string) =>
    indexEntry(INDEXES.layout.list, `${env(s)}#LAYOUTS`, `${createdAt}#${layoutDbId}`),
  /** Names the environment's default layout; created once, by the first layout (conditional Put). */
  defaultLayout: (s: EnvScope): Key => ({ pk: `${env(s)}#LAYOUTS`, sk: 'DEFAULT' }),
  layoutUse: (s: EnvScope, identifier: string, workflowDbId: string): Key => ({
    pk: `${env(s)}#LAYOUT#${identifier}`,
    sk: `USEDBY#${workflowDbId}`,
  }),
  usesOfLayout: (s: EnvScope, identifier: string) => ({ pk: `${env(s)}#LAYOUT#${identifier}`, skPrefix: 'USEDBY#' }),
  layoutUseCount: (s: EnvScope, identifier: string): Key => ({ pk: `${env(s)}#LAYOUT#${identifier}`, sk: 'USECOUNT' }),
  // ---- outbound webhooks --------------------------------------------------------------------------
  /** The environment's webhook endpoints, one partition (a handful per environment): listed and matched by one Query. */
  webhookEndpoint: (s: EnvScope, endpointId: string): Key => ({ pk: `${env(s)}#WEBHOOKS`, sk: `EP#${endpointId}` }),
  webhookEndpointsOfEnvironment: (s: EnvScope) => ({ pk: `${env(s)}#WEBHOOKS`, skPrefix: 'EP#' }),
  /**
   * Attempt `attempt` to deliver event `eventId` to an endpoint (TTL). Event ids start with their
   * time, so an endpoint's attempts read newest first by event; `attempt` is zero-padded so an
   * event's attempts sort in order. Its conditional Put is what makes a redelivered attempt
   * message schedule no second retry.
   */
  webhookAttempt: (s: EnvScope, endpointId: string, eventId: string, attempt: number): Key => ({
    pk: `${env(s)}#WHEP#${endpointId}`,
    sk: `ATT#${eventId}#${String(attempt).padStart(2, '0')}`,
  }),
  webhookAttemptsOfEndpoint: (s: EnvScope, endpointId: string) => ({ pk: `${env(s)}#WHEP#${endpointId}`, skPrefix: 'ATT#' }),
  webhookAttemptsOfEvent: (s: EnvScope, endpointId: string, eventId: string) => ({
    pk: `${env(s)}#WHEP#${endpointId}`,
    skPrefix: `ATT#${eventId}#`,
  }),
  /** An event given up on for an endpoint after its last attempt (TTL), with the payload it carried. */
  webhookDeadLetter: (s: EnvScope, endpointId: string, eventId: string): Key => ({
    pk: `${env(s)}#WHEP#${endpointId}`,
    sk: `DEAD#${eventId}`,
  }),
  webhookDeadLettersOfEndpoint: (s: EnvScope, endpointId: string) => ({ pk: `${env(s)}#WHEP#${endpointId}`, skPrefix: 'DEAD#' }),

  // ---- outbound calls the API asked the outbound consumer to make (lib/bridge/outbound-*.ts) ----------------
  /** The answer to one such call (TTL: minutes), written once by the consumer, read by the waiting handler. */
  outboundAnswer: (s: EnvScope, requestId: string): Key => ({ pk: `${env(s)}#OUTCALL#${requestId}`, sk: 'ANSWER' }),

  // ---- fan-out messages that handed their rest on (lib/pipeline/hand-on.ts) ---------------------
  /** One per events-queue message content that handed on (TTL: a day): its copies hand on nothing. */
  handOn: (s: EnvScope, transactionId: string, digest: string): Key => ({ pk: `${env(s)}#HANDON#${transactionId}#${digest}`, sk: 'CLAIM' }),

  // ---- pipeline: a partition per transaction (or TRANSACTION_SHARDS of them) --------------------
  /** The trigger of a transactionId: its conditional Put is the claim that makes the id unique. */
  triggerEvent: (s: EnvScope, transactionId: string): Key => ({ pk: transactionShard(s, transactionId, 0), sk: 'EVENT' }),
  /**
   * One notification per (transaction, subscriber); its jobs and execution details live inside
   * it. `shards`: the trigger's `notificationShards` (1 when absent): the subscriber's shard.
   */
  notification: (s: EnvScope, transactionId: string, subscriberId: string, shards: number): Key => ({
    pk: transactionShard(s, transactionId, shardOf(subscriberId, shards)),
    sk: `NOTIF#${subscriberId}`,
  }),
  /** Every partition of the transaction's notifications, shard 0 first. */
  notificationsOfTransaction: (s: EnvScope, transactionId: string, shards: number) =>
    shardNumbers(shards).map((n) => ({ pk: transactionShard(s, transactionId, n), skPrefix: 'NOTIF#' })),
  /**
   * gsi3: the activity feed, ACTIVITY_DAY_SHARDS index partitions per UTC day (ids start with
   * their creation time, so the sort key orders by time and a notification id names its own day
   * and, hashed, its shard). gsi3 and gsi4 hold only the keys and the feed's filter attributes
   * (lib/store/table.ts). `activityDay`: the day's shards, read together and merged.
   */
  activityDay: (s: EnvScope, day: string) =>
    shardNumbers(ACTIVITY_DAY_SHARDS).map((n) => indexPartition(INDEXES.notification.byDay, activityDayShard(s, day, n))),
  activityDayIndex: (s: EnvScope, day: string, notificationId: string) =>
    indexEntry(INDEXES.notification.byDay, activityDayShard(s, day, shardOf(notificationId, ACTIVITY_DAY_SHARDS)), notificationId),
  /** Where a notification's day entry may be, in order: its shard, then shard 0 (entries written before sharding). */
  activityDayLookup: (s: EnvScope, day: string, notificationId: string) => {
    const own = shardOf(notificationId, ACTIVITY_DAY_SHARDS);
    return (own === 0 ? [0] : [own, 0]).map((n) => indexEntry(INDEXES.notification.byDay, activityDayShard(s, day, n), notificationId));
  },
  /** gsi4: the activity of one subscriber, newest last. */
  activityOfSubscriber: (s: EnvScope, subscriberId: string) =>
    indexPartition(INDEXES.notification.ofSubscriber, `${env(s)}#SUB#${subscriberId}#ACT`),
  activityOfSubscriberIndex: (s: EnvScope, subscriberId: string, notificationId: string) =>
    indexEntry(INDEXES.notification.ofSubscriber, `${env(s)}#SUB#${subscriberId}#ACT`, notificationId),

  // ---- messages (in the subscriber's partition) -------------------------------------------------
  /**
   * gsi5: every message of the environment, by id (= creation order), over MESSAGE_LIST_SHARDS
   * index partitions (by a hash of the id; `messagesOfEnvironment`: all of them, read together
   * and merged); gsi6: unseen in-app only.
   * gsi7 and gsi8 are a subscriber's inbox as its front end sees it, one per set of context
   * keys (`ctx`: sorted `type:id` keys joined by `,`; '' without context): gsi7 every in-app
   * message by id, gsi8 only the unread ones (not read, archived or snoozed) by severity, then id.
   */
  message: (s: EnvScope, subscriberId: string, messageId: string): Key => ({ pk: `${env(s)}#SUB#${subscriberId}`, sk: `MSG#${messageId}` }),
  messagesOfSubscriber: (s: EnvScope, subscriberId: string) => ({ pk: `${env(s)}#SUB#${subscriberId}`, skPrefix: 'MSG#' }),
  messagesOfEnvironment: (s: EnvScope) =>
    shardNumbers(MESSAGE_LIST_SHARDS).map((n) => indexPartition(INDEXES.message.ofEnvironment, messageListShard(s, n))),
  messageListIndex: (s: EnvScope, messageId: string) =>
    indexEntry(INDEXES.message.ofEnvironment, messageListShard(s, shardOf(messageId, MESSAGE_LIST_SHARDS)), messageId),
  /** Where a message's list entry may be, in order: its shard, then shard 0 (entries written before sharding). */
  messageListLookup: (s: EnvScope, messageId: string) => {
    const own = shardOf(messageId, MESSAGE_LIST_SHARDS);
    return (own === 0 ? [0] : [own, 0]).map((n) => indexEntry(INDEXES.message.ofEnvironment, messageListShard(s, n), messageId));
  },
  /**
   * gsi1 (sparse: sent email and sms messages): a message by the provider's id of it, which the
   * provider's delivery receipts name (W7). The sort key is the message's own id.
   */
  messageOfProviderId: (s: EnvScope, providerId: string, identifier: string) =>
    indexPartition(INDEXES.message.byProviderId, `${env(s)}#PROVMSG#${providerId}#${identifier}`),
  providerMessageIndex: (s: EnvScope, providerId: string, identifier: string, messageId: string) =>
    indexEntry(INDEXES.message.byProviderId, `${env(s)}#PROVMSG#${providerId}#${identifier}`, messageId),
  unseenMessagesOfSubscriber: (s: EnvScope, subscriberId: string) =>
    indexPartition(INDEXES.message.unseen, `${env(s)}#SUB#${subscriberId}#UNSEEN`),
  unseenMessageIndex: (s: EnvScope, subscriberId: string, messageId: string) =>
    indexEntry(INDEXES.message.unseen, `${env(s)}#SUB#${subscriberId}#UNSEEN`, messageId),
  inbox: (s: EnvScope, subscriberId: string, ctx: string) =>
    indexPartition(INDEXES.message.inbox, `${env(s)}#SUB#${subscriberId}#INBOX#${ctx}`),
  inboxIndex: (s: EnvScope, subscriberId: string, ctx: string, messageId: string) =>
    indexEntry(INDEXES.message.inbox, `${env(s)}#SUB#${subscriberId}#INBOX#${ctx}`, messageId),
  unreadInbox: (s: EnvScope, subscriberId: string, ctx: string) =>
    indexPartition(INDEXES.message.unread, `${env(s)}#SUB#${subscriberId}#UNREAD#${ctx}`),
  /** The sort key's severity prefix: one severity's unread messages are a `begins_with` range. */
  unreadSeverityPrefix: (severity: string) => `${severity}#`,
  unreadInboxIndex: (s: EnvScope, subscriberId: string, ctx: string, severity: string, messageId: string) =>
    indexEntry(INDEXES.message.unread, `${env(s)}#SUB#${subscriberId}#UNREAD#${ctx}`, `${severity}#${messageId}`),

  // ---- live inbox connections (in the subscriber's partition) -----------------------------------
  /** An open WebSocket of the subscriber's inbox (TTL: API Gateway closes sockets after 2 hours). */
  liveConnection: (s: EnvScope, subscriberId: string, connectionId: string): Key => ({
    pk: `${env(s)}#SUB#${subscriberId}`,
    sk: `CONN#${connectionId}`,
  }),
  liveConnectionsOfSubscriber: (s: EnvScope, subscriberId: string) => ({ pk: `${env(s)}#SUB#${subscriberId}`, skPrefix: 'CONN#' }),

  // ---- digest windows and throttle counters ---------------------------------------------------
  /** The open window of a digest key; followers join it while it exists. */
  digestWindow: (s: EnvScope, workflowDbId: string, stepId: string, subscriberId: string, digestValue: string): Key => ({
    pk: digestSeries(s, workflowDbId, stepId, subscriberId, digestValue),
    sk: 'OPEN',
  }),
  /** An event that joined window `windowId` (the master job's id). */
  digestEvent: (
    s: EnvScope,
    workflowDbId: string,
    stepId: string,
    subscriberId: string,
    digestValue: string,
    windowId: string,
    transactionId: string,
  ): Key => ({
    pk: digestSeries(s, workflowDbId, stepId, subscriberId, digestValue),
    sk: `WIN#${windowId}#EVT#${transactionId}`,
  }),
  digestEventsOfWindow: (
    s: EnvScope,
    workflowDbId: string,
    stepId: string,
    subscriberId: string,
    digestValue: string,
    windowId: string,
  ) => ({
    pk: digestSeries(s, workflowDbId, stepId, subscriberId, digestValue),
    skPrefix: `WIN#${windowId}#EVT#`,
  }),
  /** When the digest key last saw an event (the look-back window of a backoff digest). */
  digestLastEvent: (s: EnvScope, workflowDbId: string, stepId: string, subscriberId: string, digestValue: string): Key => ({
    pk: digestSeries(s, workflowDbId, stepId, subscriberId, digestValue),
    sk: 'LAST',
  }),
  /** The environment's API rate-limit bucket of a category (lib/rate-limits): one item, one write per request. */
  rateLimitBucket: (s: EnvScope, category: string): Key => ({ pk: `${env(s)}#RATELIMIT#${category}`, sk: 'BUCKET' }),
  throttleWindow: (s: EnvScope, workflowDbId: string, stepId: string, subscriberId: string, throttleKey: string): Key => ({
    pk: `${env(s)}#THROTTLE#${workflowDbId}#${stepId}#${subscriberId}#${throttleKey}`,
    sk: 'WINDOW',
  }),

  // ---- engagement counters (lib/engagement) ----------------------------------------------------
  /**
   * The counters of one workflow (by workflowId) on one UTC day: `triggered`, and one number per
   * channel and event (`email#sent`, `in_app#read`, ...). One partition per environment, sorted by
   * day: a date range is one Query. Only the stream consumer writes them, once per batch per item.
   */
  engagementCounters: (s: EnvScope, day: string, workflowId: string): Key => ({ pk: `${env(s)}#STATS`, sk: `${day}#${workflowId}` }),
  /** The environment's counters of days `from` to `to` (yyyy-mm-dd, both included). */
  engagementCountersOfDays: (s: EnvScope, from: string, to: string) => ({
    pk: `${env(s)}#STATS`,
    skFrom: `${from}#`,
    skTo: `${to}#\uffff`,
  }),
  /**
   * Marks that `event` of a message (or trigger) `itemId` was counted: created in the same
   * transaction as the increment, with a condition, so a stream record handed over again (or a
   * second record of the same change) counts nothing. Kept as long as the item it counts (TTL).
   */
  engagementCounted: (s: EnvScope, itemId: string, event: string): Key => ({ pk: `${env(s)}#COUNTED#${itemId}`, sk: event }),

  /**
   * Idempotency records are written by Powertools, which builds the key value itself
   * (`<prefix>#<hash of organization and idempotency-key>`). We give it the attribute names
   * swapped — its "key" attribute is our sort key — so each record gets its own partition
   * instead of all of them sharing one static partition.
   */
  idempotency: { prefix: 'IDEMPOTENCY', recordSortKey: 'IDEMPOTENCY' },
} as const;
