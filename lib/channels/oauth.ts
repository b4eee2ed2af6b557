import { apiKeysOfEnvironment } from '../auth/api-keys.ts';
import { contextKeyOf, contextKeysOf } from '../context-keys.ts';
import { BadRequestError, ValidationError } from '../errors.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import { newId } from '../ids.ts';
import { contextHashValid } from '../inbox/hmac.ts';
import type { StoredIntegration } from '../integrations/repository.ts';
import { logger } from '../logger.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriberOrFail } from '../subscribers/get.ts';
import {
  claimResource,
  connectionIdentifierOfClaim,
  getConnection,
  insertConnection,
  replaceConnectionAuth,
} from './connection-repository.ts';
import { connectionFor, linkUserEndpoint } from './endpoints.ts';
import { chatIntegrationOrFail } from './integration.ts';
import { flowOf, type Install } from './oauth-providers.ts';
import { consumeState, signState, STATE_TTL_SECONDS, type OAuthState } from './oauth-state.ts';
import {
  CONNECTION_PROVIDERS,
  type GenerateOAuthUrlInput,
  type LinkEndpointInput,
  type LinkUserInput,
  type OAuthCallbackQuery,
} from './schemas.ts';

// The OAuth flows of Slack and Microsoft Teams integrations (docs/chat.md). The API hands out the
// provider's page with a signed, single-use state; the provider sends the browser to our
// callback, which checks the state and then either stores the workspace's or tenant's connection
// (connect: "Add to Slack", a Teams admin consent) or links the user who signed in as the
// subscriber's endpoint on a connection (link_user), and sends the browser on to the
// integration's Redirect URL with the outcome. The providers' halves are in oauth-providers.ts.

export const CALLBACK_PATH = '/v1/integrations/chat/oauth/callback';

type Headers = Record<string, string | undefined>;

/** Our callback's absolute URL (lib/http/public-url.ts). */
export function callbackUrl(headers: Headers): string {
  return `${publicBaseUrl(headers)}${CALLBACK_PATH}`;
}

/** The integration a flow runs on: Slack or Teams, with the app's credentials and a Redirect URL. */
async function flowIntegration(scope: EnvScope, identifier: string): Promise<StoredIntegration> {
  const integration = await chatIntegrationOrFail(scope, identifier, CONNECTION_PROVIDERS);
  const missing = flowOf(integration.providerId).missingCredentials(integration.credentials);
  if (missing) throw ValidationError.forField('integrationIdentifier', missing, identifier);
  const { redirectUrl } = integration.credentials;
  if (typeof redirectUrl !== 'string' || !redirectUrl) {
    throw ValidationError.forField(
      'integrationIdentifier',
      'Set the integration’s Redirect URL: where the browser goes after the workspace is connected',
      identifier,
    );
  }
  return integration;
}

/** With HMAC on for the integration, a context must come with its HMAC (the inbox's scheme) under one of the environment's keys. */
async function checkContextHash(
  scope: EnvScope,
  integration: StoredIntegration,
  input: { context?: unknown; contextAsSent?: unknown; contextHash?: string | undefined },
): Promise<void> {
  if (integration.credentials.hmac !== true || input.context === undefined) return;
  if (!contextHashValid(await apiKeysOfEnvironment(scope), input.contextAsSent, input.contextHash)) {
    throw new BadRequestError('Please provide a valid context HMAC hash');
  }
}

/** generateChatOAuthUrl / generateConnectOAuthUrl: the consent page that connects a workspace or tenant. */
export async function generateOAuthUrl(
  scope: EnvScope,
  input: GenerateOAuthUrlInput,
  headers: Headers,
  defaults: { autoLinkUser: boolean } = { autoLinkUser: false },
): Promise<{ url: string }> {
  if (input.mode === 'link_user') {
    if (!input.subscriberId) throw ValidationError.forField('subscriberId', 'subscriberId is required when mode is link_user', undefined);
    return generateLinkUserUrl(scope, { ...input, subscriberId: input.subscriberId }, headers);
  }
  const integration = await flowIntegration(scope, input.integrationIdentifier);
  await checkContextHash(scope, integration, input);
  const shared = input.connectionMode === 'shared';
  if (!shared) await getSubscriberOrFail(scope, input.subscriberId!);
  const state = await signState({
    ...scope,
    mode: 'connect',
    integrationIdentifier: integration.identifier,
    connectionMode: input.connectionMode,
    subscriberId: shared ? undefined : input.subscriberId,
    contextKeys: contextKeysOf(input.context),
    connectionIdentifier: input.connectionIdentifier,
    autoLinkUser: !shared && (input.autoLinkUser ?? defaults.autoLinkUser),
  });
  const url = flowOf(integration.providerId).connectUrl(integration.credentials, {
    state,
    redirectUri: callbackUrl(headers),
    ...(input.scope && { scope: input.scope }),
  });
  return { url };
}

/**
 * generateLinkUserOAuthUrl: the sign-in page that links the subscriber's own Slack or Teams user
 * as their endpoint on a connection (the one named, else the subscriber's or the context's).
 */
export async function generateLinkUserUrl(scope: EnvScope, input: LinkUserInput, headers: Headers): Promise<{ url: string }> {
  const integration = await flowIntegration(scope, input.integrationIdentifier);
  await checkContextHash(scope, integration, input);
  await getSubscriberOrFail(scope, input.subscriberId);
  const contextKeys = contextKeysOf(input.context);
  const connectionIdentifier = await connectionFor(scope, {
    integrationIdentifier: integration.identifier,
    subscriberId: input.subscriberId,
    contextKeys,
    named: input.connectionIdentifier,
  });
  return {
    url: await linkUserUrl(
      scope,
      integration,
      { subscriberId: input.subscriberId, contextKeys, connectionIdentifier },
      headers,
      input.userScope,
    ),
  };
}

async function linkUserUrl(
  scope: EnvScope,
  integration: StoredIntegration,
  target: { subscriberId: string; contextKeys: string[]; connectionIdentifier: string },
  headers: Headers,
  userScope?: readonly string[],
): Promise<string> {
  const connection = await getConnection(scope, target.connectionIdentifier);
  if (!connection)
    throw ValidationError.forField('connectionIdentifier', `Channel connection ${target.connectionIdentifier} was not found`, undefined);
  const state = await signState({
    ...scope,
    mode: 'link_user',
    integrationIdentifier: integration.identifier,
    connectionMode: 'subscriber',
    ...target,
  });
  return flowOf(integration.providerId).linkUserUrl(integration.credentials, connection, {
    state,
    redirectUri: callbackUrl(headers),
    ...(userScope && { userScope }),
  });
}

/** linkChannelEndpoint: the URL the subscriber opens to link their chat identity (a Slack or Teams sign-in). */
export async function linkChannelEndpoint(scope: EnvScope, input: LinkEndpointInput, headers: Headers) {
  const { url } = await generateLinkUserUrl(scope, input, headers);
  return { url, providerMetadata: { expiresAt: new Date(Date.now() + STATE_TTL_SECONDS * 1000).toISOString() } };
}

/**
 * The callback: the URL to send the browser to. A state that is forged, expired or used is a 400
 * (its redirect cannot be trusted); everything after it goes back to the integration's Redirect URL
 * (or, connecting a Teams tenant with autoLinkUser, on to the user's sign-in first).
 */
export async function completeOAuth(query: OAuthCallbackQuery, headers: Headers): Promise<string> {
  if (!query.state) throw new BadRequestError('The OAuth state is missing');
  const checked = await consumeState(query.state);
  if (!checked.ok) throw new BadRequestError(`The OAuth state is ${checked.reason === 'used' ? 'already used' : checked.reason}`);
  const { state } = checked;
  const scope: EnvScope = { organizationId: state.organizationId, environmentId: state.environmentId };
  const integration = await chatIntegrationOrFail(scope, state.integrationIdentifier, CONNECTION_PROVIDERS);
  const back = (outcome: Record<string, string>) => {
    const url = new URL(String(integration.credentials.redirectUrl));
    for (const [k, v] of Object.entries(outcome)) url.searchParams.set(k, v);
    return url.toString();
  };
  if (query.error) return back({ status: 'error', reason: query.error });
  const flow = flowOf(integration.providerId);
  const redirectUri = callbackUrl(headers);
  try {
    if (state.mode === 'link_user') {
      const connection = state.connectionIdentifier ? await getConnection(scope, state.connectionIdentifier) : undefined;
      if (!connection) return back({ status: 'error', reason: `channel connection ${state.connectionIdentifier} is gone` });
      const userId = await flow.completeLinkUser(integration.credentials, connection, query, redirectUri);
      const endpoint = await linkUserEndpoint(scope, integration, {
        subscriberId: state.subscriberId!,
        contextKeys: state.contextKeys,
        connectionIdentifier: connection.identifier,
        type: flow.userEndpointType,
        userId,
      });
      return back({
        status: 'success',
        endpointIdentifier: endpoint.identifier,
        connectionIdentifier: connection.identifier,
        integrationIdentifier: integration.identifier,
      });
    }
    const install = await flow.completeConnect(integration.credentials, query, redirectUri);
    const identifier = await storeConnection(scope, state, integration, install);
    const connected = back({ status: 'success', connectionIdentifier: identifier, integrationIdentifier: integration.identifier });
    if (!state.autoLinkUser || !state.subscriberId) return connected;
    const target = { subscriberId: state.subscriberId, contextKeys: state.contextKeys, connectionIdentifier: identifier };
    try {
      // Slack named the installer already; Teams needs the user's own sign-in, a second redirect.
      if (install.authedUserId)
        await linkUserEndpoint(scope, integration, { ...target, type: flow.userEndpointType, userId: install.authedUserId });
      else if (integration.providerId === 'msteams') return await linkUserUrl(scope, integration, target, headers);
    } catch (error) {
      // The connection stands; the user can be linked later (generateLinkUserOAuthUrl).
      logger.warn('Linking the connecting user failed', { integrationIdentifier: integration.identifier, error: error as Error });
    }
    return connected;
  } catch (error) {
    logger.warn('Chat OAuth callback failed', { integrationIdentifier: integration.identifier, error: error as Error });
    return back({ status: 'error', reason: (error as Error).message });
  }
}

/** The resource's connection renewed with the new token, or a new one. */
async function storeConnection(scope: EnvScope, state: OAuthState, integration: StoredIntegration, install: Install): Promise<string> {
  const subscriberId = state.connectionMode === 'shared' ? null : (state.subscriberId ?? null);
  const resource = claimResource(subscriberId, contextKeyOf(state.contextKeys));
  const auth = { accessToken: install.accessToken };
  const now = new Date().toISOString();
  const existing = await connectionIdentifierOfClaim(scope, integration.identifier, resource);
  if (existing) {
    await replaceConnectionAuth(scope, existing, { workspace: install.workspace, auth, updatedAt: now });
    return existing;
  }
  const identifier = state.connectionIdentifier ?? `conn-${newId()}`;
  await insertConnection(scope, {
    _id: newId(),
    identifier,
    providerId: integration.providerId,
    channel: 'chat',
    integrationIdentifier: integration.identifier,
    _integrationId: integration._id,
    connectionMode: state.connectionMode,
    subscriberId,
    contextKeys: state.contextKeys,
    resource,
    workspace: install.workspace,
    auth,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  });
  return identifier;
}
