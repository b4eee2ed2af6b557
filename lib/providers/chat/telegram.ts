import type { ChannelSettings } from '../../subscribers/model.ts';
import { baseUrlOf } from '../base-url.ts';
import { objectOr } from '../deep-merge.ts';
import { checkCall, type ProviderAnswer } from '../http.ts';
import { ProviderError } from '../provider.ts';
import { webhookChat } from './webhook-chat.ts';

// Telegram's Bot API: POST https://api.telegram.org/bot<token>/<method> with JSON, answered
// {ok: true, result} or {ok: false, description}. The integration holds the bot's token
// (apiToken); a subscriber's Telegram credentials name the chat to post to (`channel`: the chat
// id, stored when the subscriber opens the bot's deep link, lib/integration-setup/telegram-link.ts).

const NAME = 'Telegram';

export function telegramMethodUrl(credentials: Record<string, unknown>, method: string): string {
  return `${baseUrlOf('telegram', credentials, 'https://api.telegram.org')}/bot${String(credentials.apiToken ?? '')}/${method}`;
}

/** The answer's `result`, or a failure with Telegram's description when it refused. */
function resultOf(answer: ProviderAnswer): unknown {
  const body = objectOr(answer.body);
  if (body.ok === true) return body.result;
  const reason = typeof body.description === 'string' ? body.description : 'no reason given';
  throw new ProviderError(`Telegram refused: ${reason}`, { status: answer.status, body: answer.body });
}

/** One Bot API call made while answering an API request (bounded in time, not retried for long). */
export async function callTelegram(credentials: Record<string, unknown>, method: string, json?: unknown): Promise<unknown> {
  return resultOf(await checkCall(NAME, { method: 'POST', url: telegramMethodUrl(credentials, method), json: json ?? {} }));
}

/** The bot's @username (getMe): what its deep links open. */
export async function telegramBotUsername(credentials: Record<string, unknown>): Promise<string> {
  const username = objectOr(await callTelegram(credentials, 'getMe')).username;
  if (typeof username !== 'string' || !username) throw new ProviderError('Telegram named no username for the bot', {});
  return username;
}

/** The chat a Telegram step posts to: the subscriber's `channel` for a Telegram integration. */
export function telegramChatId(providerId: string, credentials: ChannelSettings['credentials'] | undefined): string | undefined {
  if (providerId !== 'telegram') return undefined;
  return credentials?.channel?.trim() || undefined;
}

export const telegram = webhookChat({
  id: 'telegram',
  name: NAME,
  message: (d) => ({ chat_id: d.to, text: d.content }),
  request: (d, message) => ({ url: telegramMethodUrl(d.integration.credentials, 'sendMessage'), json: message }),
  idOf: (answer) => {
    const id = objectOr(resultOf(answer)).message_id;
    return id === undefined ? undefined : String(id);
  },
});
