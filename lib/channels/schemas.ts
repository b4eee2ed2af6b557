import * as z from '../zod.ts';
import { cursorQueryFields } from '../http/cursor-list.ts';
import { contextSchema } from '../events/schemas.ts';
import { externalIdSchema, MAX_EXTERNAL_ID_LENGTH } from '../external-id.ts';
import { keepContextAsSent, list } from '../inbox/schemas.ts';

// Shapes of channel connections (a workspace's token for a chat integration, per subscriber or
// shared per context) and channel endpoints (where a chat step posts: a Slack or Teams channel or
// user, a webhook), of the requests that change them and of their cursor lists, as `@novu/api` 3.19
// sends and reads them. Unknown body fields are ignored (zod strips them).

/** The providers a connection can hold a token for: the ones delivery posts through with it. */
export const CONNECTION_PROVIDERS = ['slack', 'msteams'] as const;

/**
 * The endpoint types delivery sends to (lib/channels/targets.ts). The SDK names more (phone,
 * Telegram, Webex, ...): they are refused with a 422 rather than stored and never used.
 */
export const ENDPOINT_TYPES = ['slack_channel', 'slack_user', 'ms_teams_channel', 'ms_teams_user', 'webhook'] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

const identifier = (field: string) => externalIdSchema(field);
const text = (field: string, max = 1024) => z.string().check(z.minLength(1, `${field} must not be empty`), z.maxLength(max));

const workspace = z.object({
  id: text('workspace.id', 256),
  name: z.optional(z.string().check(z.maxLength(1024))),
  botUserId: z.optional(z.string().check(z.maxLength(256))),
});
export type Workspace = z.infer<typeof workspace>;

const isoDate = (field: string) => z.string().check(z.refine((v) => !Number.isNaN(Date.parse(v)), `${field} must be an ISO 8601 date`));

const auth = z.object({
  accessToken: text('auth.accessToken', 4096),
  refreshToken: z.optional(text('auth.refreshToken', 4096)),
  expiresAt: z.optional(isoDate('auth.expiresAt')),
  refreshTokenExpiresAt: z.optional(isoDate('auth.refreshTokenExpiresAt')),
});
export type Auth = z.infer<typeof auth>;

export const connectionModeSchema = z.enum(['subscriber', 'shared']);

export const createConnectionBody = z
  .object({
    identifier: z.optional(identifier('identifier')),
    subscriberId: z.optional(identifier('subscriberId')),
    context: z.optional(contextSchema),
    connectionMode: z._default(connectionModeSchema, 'subscriber'),
    integrationIdentifier: text('integrationIdentifier', MAX_EXTERNAL_ID_LENGTH),
    workspace,
    auth,
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.connectionMode === 'subscriber' && !body.subscriberId)
        ctx.addIssue({ code: 'custom', message: 'subscriberId is required when connectionMode is subscriber', path: ['subscriberId'] });
      if (body.connectionMode === 'shared' && !body.context)
        ctx.addIssue({ code: 'custom', message: 'context is required when connectionMode is shared', path: ['context'] });
    }),
  );
export type CreateConnectionInput = z.infer<typeof createConnectionBody>;

export const updateConnectionBody = z.object({ workspace, auth });
export type UpdateConnectionInput = z.infer<typeof updateConnectionBody>;

/** Path identifiers are only bounded: one nothing can have is simply not found. */
export const identifierParams = z.object({ identifier: z.string().check(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID_LENGTH)) });

const contextKey = z.string().check(z.minLength(1), z.maxLength(512));
const listFilters = {
  ...cursorQueryFields,
  orderBy: z.optional(z.enum(['createdAt'])),
  subscriberId: z.optional(z.string().check(z.maxLength(MAX_EXTERNAL_ID_LENGTH))),
  channel: z.optional(z.enum(['in_app', 'email', 'sms', 'chat', 'push', 'tool'])),
  providerId: z.optional(z.string().check(z.maxLength(64))),
  integrationIdentifier: z.optional(z.string().check(z.maxLength(MAX_EXTERNAL_ID_LENGTH))),
  contextKeys: z.optional(list(contextKey)),
};

export const listConnectionsQuery = z.object({ ...listFilters, connectionMode: z.optional(connectionModeSchema) });
export type ListConnectionsQuery = z.infer<typeof listConnectionsQuery>;

export const listEndpointsQuery = z.object({
  ...listFilters,
  connectionIdentifier: z.optional(z.string().check(z.maxLength(MAX_EXTERNAL_ID_LENGTH))),
});
export type ListEndpointsQuery = z.infer<typeof listEndpointsQuery>;

// ---- endpoints -------------------------------------------------------------------------------

const slackId = (field: string) => text(field, 64);
const slackChannel = z.object({ channelId: slackId('endpoint.channelId') });
const slackUser = z.object({ userId: slackId('endpoint.userId') });
// Teams ids: a team's group id, a channel's thread id (19:…@thread.tacv2), a user's AAD object id.
const teamsId = (field: string) => text(field, 256);
const teamsChannel = z.object({ teamId: teamsId('endpoint.teamId'), channelId: teamsId('endpoint.channelId') });
const teamsUser = z.object({ userId: teamsId('endpoint.userId') });
const webhook = z.object({
  url: z.url({ protocol: /^https?$/, error: 'endpoint.url must be an http(s) URL' }).check(z.maxLength(2048)),
  channel: z.optional(z.string().check(z.maxLength(256))),
});

/** The endpoint data of each supported type. */
export const endpointDataSchemas = {
  slack_channel: slackChannel,
  slack_user: slackUser,
  ms_teams_channel: teamsChannel,
  ms_teams_user: teamsUser,
  webhook,
} as const;
export type EndpointData = { channelId: string; teamId?: string } | { userId: string } | { url: string; channel?: string | undefined };

const createFields = {
  identifier: z.optional(identifier('identifier')),
  subscriberId: identifier('subscriberId'),
  createSubscriberIfMissing: z.optional(z.boolean()),
  context: z.optional(contextSchema),
  integrationIdentifier: text('integrationIdentifier', MAX_EXTERNAL_ID_LENGTH),
  connectionIdentifier: z.optional(text('connectionIdentifier', MAX_EXTERNAL_ID_LENGTH)),
};

export const createEndpointBody = z.discriminatedUnion(
  'type',
  [
    z.object({ ...createFields, type: z.literal('slack_channel'), endpoint: slackChannel }),
    z.object({ ...createFields, type: z.literal('slack_user'), endpoint: slackUser }),
    z.object({ ...createFields, type: z.literal('ms_teams_channel'), endpoint: teamsChannel }),
    z.object({ ...createFields, type: z.literal('ms_teams_user'), endpoint: teamsUser }),
    z.object({ ...createFields, type: z.literal('webhook'), endpoint: webhook }),
  ],
  { error: `type must be one of ${ENDPOINT_TYPES.join(', ')}` },
);
export type CreateEndpointInput = z.infer<typeof createEndpointBody>;

/** The new endpoint data; checked against the endpoint's own type by the use case. */
export const updateEndpointBody = z.object({ endpoint: z.record(z.string(), z.unknown(), { error: 'endpoint must be an object' }) });
export type UpdateEndpointInput = z.infer<typeof updateEndpointBody>;

// ---- responses -------------------------------------------------------------------------------

const listPage = <T extends z.ZodMiniType>(item: T) => ({
  data: z.array(item),
  next: z.nullable(z.string()),
  previous: z.nullable(z.string()),
  totalCount: z.number(),
  totalCountCapped: z.boolean(),
});

export const connectionSchema = z
  .object({
    identifier: z.string(),
    channel: z.nullable(z.string()),
    providerId: z.nullable(z.string()),
    integrationIdentifier: z.nullable(z.string()),
    subscriberId: z.nullable(z.string()),
    contextKeys: z.array(z.string()),
    workspace,
    /** The token masked: it is never returned in clear. */
    auth: z.object({
      accessToken: z.string(),
      refreshToken: z.optional(z.string()),
      expiresAt: z.optional(z.string()),
      refreshTokenExpiresAt: z.optional(z.string()),
    }),
    /** `active`, or `revoked` once the provider refused the token (a delivery failed with it). */
    status: z.enum(['active', 'revoked']),
    revokedReason: z.optional(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'ChannelConnection' });
export type ConnectionView = z.infer<typeof connectionSchema>;

export const connectionListSchema = z.object(listPage(connectionSchema)).register(z.globalRegistry, { id: 'ChannelConnectionList' });

export const endpointSchema = z
  .object({
    identifier: z.string(),
    channel: z.nullable(z.string()),
    providerId: z.nullable(z.string()),
    integrationIdentifier: z.nullable(z.string()),
    connectionIdentifier: z.nullable(z.string()),
    subscriberId: z.nullable(z.string()),
    contextKeys: z.array(z.string()),
    type: z.enum(ENDPOINT_TYPES),
    endpoint: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'ChannelEndpoint' });
export type EndpointView = z.infer<typeof endpointSchema>;

export const endpointListSchema = z.object(listPage(endpointSchema)).register(z.globalRegistry, { id: 'ChannelEndpointList' });

// ---- OAuth flows (lib/channels/oauth.ts) ------------------------------------------------------

const scopeList = z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(50));

/**
 * The HMAC of the context as sent (the inbox's scheme, lib/inbox/hmac.ts), checked when the
 * integration has HMAC on; the context as sent is kept beside the parsed one for it.
 */
const contextHashFields = {
  contextHash: z.optional(z.string().check(z.maxLength(512))),
  contextAsSent: z.optional(z.unknown()),
};

const subscriberOrContext = z.superRefine(
  (body: { connectionMode: 'subscriber' | 'shared'; subscriberId?: string | undefined; context?: unknown }, ctx) => {
    if (body.connectionMode === 'subscriber' && !body.subscriberId)
      ctx.addIssue({ code: 'custom', message: 'subscriberId is required when connectionMode is subscriber', path: ['subscriberId'] });
    if (body.connectionMode === 'shared' && !body.context)
      ctx.addIssue({ code: 'custom', message: 'context is required when connectionMode is shared', path: ['context'] });
  },
);

/** generateChatOAuthUrl and generateConnectOAuthUrl (the first also has `mode`). */
export const generateOAuthUrlBody = z.preprocess(
  keepContextAsSent,
  z
    .object({
      subscriberId: z.optional(identifier('subscriberId')),
      integrationIdentifier: text('integrationIdentifier', MAX_EXTERNAL_ID_LENGTH),
      connectionIdentifier: z.optional(identifier('connectionIdentifier')),
      context: z.optional(contextSchema),
      scope: z.optional(scopeList),
      userScope: z.optional(scopeList),
      /** `link_user`: the same as generateLinkUserOAuthUrl. */
      mode: z._default(z.enum(['connect', 'link_user']), 'connect'),
      connectionMode: z._default(connectionModeSchema, 'subscriber'),
      autoLinkUser: z.optional(z.boolean()),
      ...contextHashFields,
    })
    .check(subscriberOrContext),
);
export type GenerateOAuthUrlInput = z.infer<typeof generateOAuthUrlBody>;

export const oauthUrlSchema = z.object({ url: z.string() }).register(z.globalRegistry, { id: 'ChatOAuthUrl' });

/** generateLinkUserOAuthUrl: a subscriber signs in to the chat provider, and their user becomes an endpoint. */
export const linkUserBody = z.preprocess(
  keepContextAsSent,
  z.object({
    subscriberId: identifier('subscriberId'),
    integrationIdentifier: text('integrationIdentifier', MAX_EXTERNAL_ID_LENGTH),
    connectionIdentifier: z.optional(identifier('connectionIdentifier')),
    context: z.optional(contextSchema),
    userScope: z.optional(scopeList),
    ...contextHashFields,
  }),
);
export type LinkUserInput = z.infer<typeof linkUserBody>;

/** linkChannelEndpoint: the URL the subscriber opens to link their chat identity. */
export const linkEndpointBody = z.preprocess(
  keepContextAsSent,
  z.object({
    integrationIdentifier: text('integrationIdentifier', MAX_EXTERNAL_ID_LENGTH),
    subscriberId: identifier('subscriberId'),
    context: z.optional(contextSchema),
    ...contextHashFields,
  }),
);
export type LinkEndpointInput = z.infer<typeof linkEndpointBody>;

export const linkEndpointSchema = z
  .object({ url: z.string(), providerMetadata: z.optional(z.record(z.string(), z.unknown())) })
  .register(z.globalRegistry, { id: 'LinkChannelEndpoint' });

/**
 * What the provider sends the browser back with: a code (Slack; a Microsoft sign-in) or an admin
 * consent's tenant (Microsoft), and our state; or an error.
 */
export const oauthCallbackQuery = z.object({
  code: z.optional(z.string().check(z.maxLength(4096))),
  state: z.optional(z.string().check(z.maxLength(4096))),
  tenant: z.optional(z.string().check(z.maxLength(256))),
  admin_consent: z.optional(z.string().check(z.maxLength(16))),
  error: z.optional(z.string().check(z.maxLength(256))),
  error_description: z.optional(z.string().check(z.maxLength(2048))),
});
export type OAuthCallbackQuery = z.infer<typeof oauthCallbackQuery>;
