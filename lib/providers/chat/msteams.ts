import { randomUUID } from 'node:crypto';
import { baseUrlOf } from '../base-url.ts';
import { deepMerge, isPlainObject, objectOr } from '../deep-merge.ts';
import { callProvider, withProviderData, type ProviderAnswer, type ProviderRequest } from '../http.ts';
import { messageOverrides } from '../message-overrides.ts';
import { ProviderError, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { RevokedTokenError } from '../revoked-token.ts';
import { BOT_APP_MISSING, botAppOf, botFrameworkToken, forgetBotFrameworkToken, type BotApp } from './msteams-identity.ts';
import { webhookChat } from './webhook-chat.ts';

// Microsoft Teams, two ways. A webhook (a Workflows "when a webhook request is received" flow, or
// a legacy incoming-webhook connector): both take a message with an Adaptive Card attachment, so
// plain text goes in a card. Or, for a channel endpoint on a tenant connection (lib/channels), the
// bot (the integration's Azure bot registration) posts through the Bot Framework with its own
// token: to a channel's conversation, or to a user's 1:1 conversation it opens first. The Bot
// Framework's origin is the integration's baseUrl, else PROVIDER_BASE_URL_MSTEAMS, else
// smba.trafficmanager.net. A body that is itself a JSON object (an author's own card) is sent as is.

const webhook = webhookChat({
  id: 'msteams',
  name: 'Microsoft Teams',
  message: (d) =>
    ownCard(d.content) ?? {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [{ type: 'TextBlock', text: d.content, wrap: true }],
          },
        },
      ],
    },
  idOf: (answer) => answer.headers.get('request-id') ?? answer.headers.get('x-ms-request-id'),
});

export const msteams: DeliveryProvider = {
  send: (d: Delivery) => (d.connection ? sendThroughBot(d) : webhook.send(d)),
};

const conversations = (d: Delivery) =>
  `${baseUrlOf('msteams', d.integration.credentials, 'https://smba.trafficmanager.net')}/teams/v3/conversations`;

async function sendThroughBot(d: Delivery): Promise<DeliveryResult> {
  const connection = d.connection!;
  const { credentials } = d.integration;
  const app = botAppOf(credentials);
  if (!app) throw new ProviderError(BOT_APP_MISSING);
  const token = await botFrameworkToken(credentials, app);
  const call = (request: ProviderRequest) => botCall(d, app, { ...request, headers: { authorization: `Bearer ${token}` } });
  const tenant = { id: connection.workspaceId };

  let conversationId = d.to;
  if (connection.kind === 'user') {
    // A bot reaches a user in the 1:1 conversation it creates (or finds) with them in their tenant.
    const opened = await call({
      url: conversations(d),
      json: { isGroup: false, bot: { id: app.clientId }, members: [{ id: d.to }], tenantId: tenant.id, channelData: { tenant } },
    });
    const id = objectOr(opened.body).id;
    if (typeof id !== 'string' || !id) throw new ProviderError('Microsoft Teams opened no conversation with the user', opened.body);
    conversationId = id;
  }
  const channelData =
    connection.kind === 'channel'
      ? { tenant, channel: { id: d.to }, ...(connection.teamId && { team: { id: connection.teamId } }) }
      : { tenant };
  const activity = deepMerge(ownCard(d.content) ?? { type: 'message', text: d.content }, messageOverrides(d));
  const answer = await call(
    withProviderData(
      { url: `${conversations(d)}/${encodeURIComponent(conversationId)}/activities`, json: { ...activity, channelData } },
      d.providerData,
    ),
  );
  const id = objectOr(answer.body).id;
  return { id: typeof id === 'string' && id ? id : randomUUID(), raw: { status: answer.status, body: answer.body } };
}

/** A Bot Framework call; its 401 says the token no longer works: the connection is marked, the token renewed next time. */
async function botCall(d: Delivery, app: BotApp, request: ProviderRequest): Promise<ProviderAnswer> {
  try {
    return await callProvider('Microsoft Teams', { method: 'POST', ...request });
  } catch (error) {
    const raw = error instanceof ProviderError ? objectOr(error.raw) : {};
    if (raw.status !== 401) throw error;
    forgetBotFrameworkToken(d.integration.credentials, app);
    throw new RevokedTokenError('Microsoft Teams refused the bot’s token: 401', '401', raw);
  }
}

function ownCard(content: string): Record<string, unknown> | undefined {
  if (!content.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(content);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
