import { route } from '#infra/routes/messages.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeMessage } from '#lib/messages/remove.ts';

export const handler = httpHandler(route('deleteMessage'), ({ caller, params }) => removeMessage(caller, params.messageId));
