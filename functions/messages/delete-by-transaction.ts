import { route } from '#infra/routes/messages.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeMessagesOfTransaction } from '#lib/messages/remove-transaction.ts';

export const handler = httpHandler(route('deleteMessagesByTransactionId'), ({ caller, params, query }) =>
  removeMessagesOfTransaction(caller, params.transactionId, query.channel),
);
