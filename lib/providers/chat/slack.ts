import { baseUrlOf } from '../base-url.ts';
import { objectOr } from '../deep-merge.ts';
import { checkCall, type ProviderAnswer } from '../http.ts';
import { ProviderError, type ConnectionTarget, type Delivery, type DeliveryProvider } from '../provider.ts';
import { RevokedTokenError, SLACK_REVOKED_TOKEN_ERRORS } from '../revoked-token.ts';
import { slackBotChannel, slackBotToken } from './slack-target.ts';
import { webhookChat } from './webhook-chat.ts';

// Slack, two ways (slack-target.ts picks): an incoming webhook (the subscriber's webhookUrl):
// POST {text}, Slack answers "ok" and names the request, not the message, in x-slack-req-id; or
// a bot token (the integration's apiToken) posting to the subscriber's `channel` with
// chat.postMessage, whose answer is the message's `ts`. The Web API answers 200 with
// {ok: false, error} when it refuses. svc-slack (the built-in app) delivers the same way. A
// channel connection (lib/channels: a workspace's token from "Add to Slack") posts the same
// way with its own token to the endpoint's channel or user (`delivery.to`).

function incomingWebhook(id: string) {
  return webhookChat({
    id,
    name: 'Slack',
    message: (d) => ({ text: d.content }),
    idOf: (answer) => answer.headers.get('x-slack-req-id'),
  });
}

// The integration's baseUrl may name another Slack (GovSlack: https://slack-gov.com).
const webApi = (providerId: string, credentials: Record<string, unknown>, path: string) =>
  `${baseUrlOf(providerId, credentials, 'https://slack.com')}/api/${path}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The Web API's own refusal (HTTP 200 with ok: false) as a failure with Slack's error code. */
function okOrRefused(answer: ProviderAnswer, what: string): Record<string, unknown> {
  const body = objectOr(answer.body);
  if (body.ok === true) return body;
  const reason = typeof body.error === 'string' ? body.error : 'no reason given';
  const raw = { status: answer.status, body: answer.body };
  if (SLACK_REVOKED_TOKEN_ERRORS.has(reason)) throw new RevokedTokenError(`Slack ${what}: ${reason}`, reason, raw);
  throw new ProviderError(`Slack ${what}: ${reason}`, raw);
}

function botMessage(id: string) {
  return webhookChat({
    id,
    name: 'Slack',
    message: (d) => ({
      channel: d.connection ? d.to : slackBotChannel(id, d.integration.credentials, d.channelCredentials),
      text: d.content,
    }),
    request: (d, message) => ({
      url: webApi(id, d.integration.credentials, 'chat.postMessage'),
      headers: bearer(d.connection?.accessToken ?? slackBotToken(d.integration.credentials) ?? ''),
      json: message,
    }),
    idOf: (answer) => okOrRefused(answer, 'did not post the message').ts,
  });
}

function slackProvider(id: 'slack' | 'svc-slack'): DeliveryProvider {
  const webhook = incomingWebhook(id);
  const bot = botMessage(id);
  return {
    send: (d: Delivery) =>
      d.connection || slackBotChannel(id, d.integration.credentials, d.channelCredentials) ? bot.send(d) : webhook.send(d),
  };
}

export const slack = slackProvider('slack');
export const svcSlack = slackProvider('svc-slack');

/** With a bot token: auth.test, which only says whose the token is. An integration without one has nothing to test. */
export async function checkSlackConnection({ providerId, credentials }: ConnectionTarget): Promise<void> {
  const token = slackBotToken(credentials);
  if (!token) return;
  okOrRefused(
    await checkCall('Slack', { method: 'POST', url: webApi(providerId, credentials, 'auth.test'), headers: bearer(token) }),
    'refused the token',
  );
}
