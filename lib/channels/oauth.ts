import { contextKeyOf, contextKeysOf } from '../context-keys.ts';
import { BadRequestError, ValidationError } from '../errors.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import { newId } from '../ids.ts';
import { logger } from '../logger.ts';
import { DEFAULT_SLACK_SCOPES, exchangeSlackCode, slackAuthorizeUrl } from '../providers/chat/slack-oauth.ts';
import type { EnvScope } from '../scope.ts';
import { getSubscriberOrFail } from '../subscribers/get.ts';
import { claimResource, connectionIdentifierOfClaim, insertConnection, replaceConnectionAuth } from './connection-repository.ts';
import { chatIntegrationOrFail } from './integration.ts';
import { consumeState, signState, type OAuthState } from './oauth-state.ts';
import { CONNECTION_PROVIDERS, type GenerateOAuthUrlInput, type OAuthCallbackQuery } from './schemas.ts';

// The OAuth connect flow of a Slack integration (docs/chat.md): the API hands out the provider's
// consent URL with a signed, single-use state; the provider sends the browser to our callback,
// which checks the state, exchanges the code for the workspace's token, stores it as a channel
// connection (or renews the resource's existing one) and sends the browser on to the
// integration's Redirect URL with the outcome.

export const CALLBACK_PATH = '/v1/integrations/chat/oauth/callback';

/** Our callback's absolute URL (lib/http/public-url.ts). */
export function callbackUrl(headers: Record<string, string | undefined>): string {
  return `${publicBaseUrl(headers)}${CALLBACK_PATH}`;
}

export async function generateOAuthUrl(
  scope: EnvScope,
  input: GenerateOAuthUrlInput,
  headers: Record<string, string | undefined>,
): Promise<{ url: string }> {
  const integration = await chatIntegrationOrFail(scope, input.integrationIdentifier, CONNECTION_PROVIDERS);
  const { clientId, secretKey, redirectUrl } = integration.credentials;
  if (!clientId || !secretKey) {
    throw ValidationError.forField(
      'integrationIdentifier',
      'The integration needs the Slack app’s Client ID and Client Secret',
      input.integrationIdentifier,
    );
  }
  if (typeof redirectUrl !== 'string' || !redirectUrl) {
    throw ValidationError.forField(
      'integrationIdentifier',
      'Set the integration’s Redirect URL: where the browser goes after the workspace is connected',
      input.integrationIdentifier,
    );
  }
  const shared = input.connectionMode === 'shared';
  if (!shared) await getSubscriberOrFail(scope, input.subscriberId!);
  const state = await signState({
    ...scope,
    integrationIdentifier: integration.identifier,
    connectionMode: input.connectionMode,
    subscriberId: shared ? undefined : input.subscriberId,
    contextKeys: contextKeysOf(input.context),
    connectionIdentifier: input.connectionIdentifier,
  });
  return {
    url: slackAuthorizeUrl(integration.credentials, {
      state,
      redirectUri: callbackUrl(headers),
      scope: input.scope ?? DEFAULT_SLACK_SCOPES,
    }),
  };
}

/**
 * The callback: the URL to send the browser to. A state that is forged, expired or used is a 400
 * (its redirect cannot be trusted); everything after it goes back to the integration's Redirect URL.
 */
export async function completeOAuth(query: OAuthCallbackQuery, headers: Record<string, string | undefined>): Promise<string> {
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
  if (query.error || !query.code) return back({ status: 'error', reason: query.error ?? 'no code given' });
  try {
    const install = await exchangeSlackCode(integration.credentials, query.code, callbackUrl(headers));
    const identifier = await storeConnection(scope, state, integration, install);
    return back({ status: 'success', connectionIdentifier: identifier, integrationIdentifier: integration.identifier });
  } catch (error) {
    logger.warn('Chat OAuth callback failed', { integrationIdentifier: integration.identifier, error: error as Error });
    return back({ status: 'error', reason: (error as Error).message });
  }
}

/** The resource's connection renewed with the new token, or a new one. */
async function storeConnection(
  scope: EnvScope,
  state: OAuthState,
  integration: { _id: string; identifier: string; providerId: string },
  install: Awaited<ReturnType<typeof exchangeSlackCode>>,
): Promise<string> {
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
